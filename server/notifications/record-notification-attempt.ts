import "server-only";
import type { Db } from "../db/client";
import { afterFailure, type RetryPolicy } from "../webhooks/backoff";
import type { ClaimedNotification } from "./claim-notifications";
import type { MailOutcome } from "./send-mail";

export type NotificationAttemptResult = "sent" | "retry" | "dead" | "not_configured" | "gone";

/** The mail retry policy: the webhooks' backoff, and a last attempt by number too. */
export interface MailRetryPolicy extends RetryPolicy {
  /** the attempt after which a failing mail is dead */
  maxAttempts: number;
}

/**
 * Records one attempt and what follows, in one transaction: the attempt row
 * (when, how long, the server's answer or the error); the notification sent,
 * dead (after maxAttempts, or the policy's give-up age), due again after the
 * webhooks' backoff, or not_configured (no SMTP server: never retried). One no
 * longer pending (a lease ran out and another worker finished it) keeps its
 * state; one deleted meanwhile records nothing.
 */
export async function recordNotificationAttempt(input: {
  db: Db;
  notification: ClaimedNotification;
  /** what the SMTP server said, or why nothing was sent: no server configured, or nothing left to say (dead) */
  outcome: MailOutcome | { unsent: "not_configured" | "dead"; reason: string };
  at: Date;
  now: Date;
  policy: MailRetryPolicy;
  random?: () => number;
}): Promise<NotificationAttemptResult> {
  const { db, notification, at, now, policy } = input;
  const unsent = "unsent" in input.outcome ? input.outcome.unsent : null;
  const outcome: MailOutcome =
    "unsent" in input.outcome ? { ok: false, response: null, error: input.outcome.reason, durationMs: 0 } : input.outcome;
  const next = unsent
    ? ({ kind: unsent } as const)
    : outcome.ok
      ? ({ kind: "sent" } as const)
      : notification.attempts >= policy.maxAttempts
        ? ({ kind: "dead" } as const)
        : afterFailure(notification, now, policy, input.random);
  return db.$transaction(async (tx) => {
    const current = await tx.notificationDelivery.findUnique({ where: { id: notification.id }, select: { status: true } });
    if (!current) return "gone";
    await tx.notificationAttempt.create({
      data: { deliveryId: notification.id, at, durationMs: outcome.durationMs, response: outcome.response, error: outcome.error },
    });
    if (current.status === "pending") {
      await tx.notificationDelivery.update({
        where: { id: notification.id },
        data:
          next.kind === "retry"
            ? { nextAttemptAt: next.at, lastAttemptAt: at, lastError: outcome.error }
            : next.kind === "sent"
              ? { status: "sent", sentAt: now, lastAttemptAt: at, lastError: null }
              : { status: next.kind, lastAttemptAt: at, lastError: outcome.error },
      });
    }
    return next.kind;
  });
}
