import "server-only";
import type { Db } from "../db/client";
import { log } from "../log";
import { observeNotificationAttempt } from "../metrics/observe";
import { DEFAULT_RETRY_POLICY } from "../webhooks/backoff";
import type { BackgroundWorker } from "../workers/background-worker";
import { claimLoop } from "../workers/claim-loop";
import { claimNotifications, type ClaimedNotification } from "./claim-notifications";
import { composeNotification } from "./compose-notification";
import { enqueueNotifications } from "./enqueue-notifications";
import { escalateWaitingRequests } from "./escalate-waiting-requests";
import { printUnsentMail } from "./print-unsent-mail";
import { recordNotificationAttempt, type MailRetryPolicy } from "./record-notification-attempt";
import type { MailSender } from "./send-mail";

export const DEFAULT_MAIL_POLICY: MailRetryPolicy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 10 };

export interface NotificationWorkerOptions {
  db: Db;
  /** sends one mail; null: no SMTP server is configured (nothing is sent) */
  send: MailSender | null;
  /** with no SMTP server, print each mail on stdout (development on the embedded database) */
  printUnsent?: boolean;
  /** the time every database timestamp is read at (tests move it) */
  clock?: () => Date;
  random?: () => number;
  policy?: MailRetryPolicy;
  /** how long a claim holds a notification: longer than a send (default 2 min) */
  leaseMs?: number;
  /** how often an idle worker looks for new events, overdue requests and due mails (default 1 s) */
  pollMs?: number;
  /** mails in flight at once (default 4) */
  concurrency?: number;
  /** only this tenant's (tests share one database) */
  tenantId?: string;
}

/**
 * Mail notifications from the outbox: finds new events and overdue requests,
 * makes their deliveries, claims the due ones (SKIP LOCKED, leased), sends
 * each through SMTP and records every attempt. Nothing else waits for it:
 * a request's handler and transaction never send mail. Any number may run.
 */
export function startNotificationWorker(options: NotificationWorkerOptions): BackgroundWorker {
  const { db, tenantId, send } = options;
  const clock = options.clock ?? (() => new Date());
  const policy = options.policy ?? DEFAULT_MAIL_POLICY;
  const leaseMs = options.leaseMs ?? 120_000;
  const pollMs = options.pollMs ?? 1_000;
  const concurrency = options.concurrency ?? 4;

  async function attempt(notification: ClaimedNotification): Promise<void> {
    const at = clock();
    const message = await composeNotification(db, notification, at);
    const outcome = !message
      ? ({ unsent: "dead", reason: "nothing left to say: its request is gone" } as const)
      : send
        ? await send(notification.email, message)
        : ({ unsent: "not_configured", reason: "BC_SMTP_URL is not set" } as const);
    if (message && !send && options.printUnsent) printUnsentMail(notification.email, message);
    const result = await recordNotificationAttempt({ db, notification, outcome, at, now: clock(), policy, random: options.random });
    observeNotificationAttempt(result);
    const fields = {
      id: String(notification.id),
      kind: notification.kind,
      attempt: notification.attempts,
      error: "error" in outcome ? outcome.error : outcome.reason,
    };
    if (result === "dead") log.warn("notification gave up: dead", fields);
    else if (result === "retry") log.info("notification failed; will retry", fields);
  }

  return claimLoop({
    pollMs,
    concurrency,
    scan: async () => {
      await enqueueNotifications({ db, now: clock(), tenantId });
      await escalateWaitingRequests({ db, now: clock(), tenantId });
    },
    claim: (limit) => {
      const now = clock();
      return claimNotifications({ db, now, leaseUntil: new Date(now.getTime() + leaseMs), limit, tenantId });
    },
    attempt,
    onPassError: (error) => log.error("notification worker pass failed", { error: String(error) }),
    onAttemptError: (notification, error) =>
      log.error("notification attempt could not be recorded", { id: String(notification.id), error: String(error) }),
  });
}
