import "server-only";
import type { Db } from "../db/client";
import { env } from "../env";
import { log } from "../log";
import type { BackgroundWorker } from "../workers/background-worker";
import { claimLoop } from "../workers/claim-loop";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./backoff";
import { claimDeliveries, type ClaimedDelivery } from "./claim-deliveries";
import { enqueueDeliveries } from "./enqueue-deliveries";
import { loadAttemptInputs, type AttemptInput } from "./load-attempt-inputs";
import { recordAttempt } from "./record-attempt";
import { sendWebhook, type SendOutcome } from "./send-webhook";
import { observeWebhookAttempt } from "../metrics/observe";

/** A claimed delivery with what its attempt needs. */
interface Claimed {
  delivery: ClaimedDelivery;
  input: AttemptInput;
}

export interface DeliveryWorkerOptions {
  db: Db;
  /** the time every database timestamp is read at (tests move it) */
  clock?: () => Date;
  random?: () => number;
  policy?: RetryPolicy;
  /** one POST, answer included (default 5 s) */
  timeoutMs?: number;
  /** how long a claim holds a delivery: longer than an attempt (default timeout + 60 s) */
  leaseMs?: number;
  /** how often an idle worker looks for new events and due retries (default BC_WEBHOOK_POLL_MS) */
  pollMs?: number;
  /** attempts in flight at once (default 8) */
  concurrency?: number;
  /** only this tenant's subscriptions (tests share one database) */
  tenantId?: string;
}

/**
 * Delivers the outbox to webhooks: considers new events, claims due
 * deliveries (SKIP LOCKED, leased), POSTs them signed, records each attempt.
 * Any number of workers, in any number of processes, may run at once.
 */
export function startDeliveryWorker(options: DeliveryWorkerOptions): BackgroundWorker {
  const { db, tenantId } = options;
  const clock = options.clock ?? (() => new Date());
  const policy = options.policy ?? DEFAULT_RETRY_POLICY;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const leaseMs = options.leaseMs ?? timeoutMs + 60_000;
  const pollMs = options.pollMs ?? env().BC_WEBHOOK_POLL_MS;
  const concurrency = options.concurrency ?? 8;

  async function attempt({ delivery, input }: Claimed): Promise<void> {
    const at = clock();
    const outcome: SendOutcome = input.keyError
      ? { ok: false, statusCode: null, error: input.keyError, durationMs: 0 }
      : await sendWebhook({
          url: input.url,
          event: input.event,
          format: input.format,
          chat: input.chat,
          keys: input.keys,
          timeoutMs,
          now: at,
        });
    const result = await recordAttempt({ db, delivery, outcome, at, now: clock(), policy, random: options.random });
    observeWebhookAttempt(result);
    const fields = { subscriptionId: delivery.subscriptionId, eventId: delivery.eventId, attempt: delivery.attempts, error: outcome.error };
    if (result === "dead") log.warn("webhook delivery gave up: dead", fields);
    else if (result === "retry") log.info("webhook delivery failed; will retry", fields);
  }

  return claimLoop<Claimed>({
    pollMs,
    concurrency,
    scan: async () => {
      await enqueueDeliveries({ db, now: clock(), tenantId });
    },
    async claim(limit) {
      const now = clock();
      const claimed = await claimDeliveries({ db, now, leaseUntil: new Date(now.getTime() + leaseMs), limit, tenantId });
      const inputs = claimed.length ? await loadAttemptInputs(db, claimed, now) : new Map<bigint, AttemptInput>();
      return claimed.flatMap((delivery) => {
        const input = inputs.get(delivery.id);
        return input ? [{ delivery, input }] : [];
      });
    },
    attempt,
    onPassError: (error) => log.error("webhook worker pass failed", { error: String(error) }),
    onAttemptError: ({ delivery }, error) =>
      log.error("webhook attempt could not be recorded", { eventId: delivery.eventId, error: String(error) }),
  });
}
