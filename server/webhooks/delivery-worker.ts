import "server-only";
import type { Db } from "../db/client";
import { env } from "../env";
import { log } from "../log";
import type { BackgroundWorker } from "../workers/background-worker";
import { napper } from "../workers/nap";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./backoff";
import { claimDeliveries, type ClaimedDelivery } from "./claim-deliveries";
import { enqueueDeliveries } from "./enqueue-deliveries";
import { loadAttemptInputs, type AttemptInput } from "./load-attempt-inputs";
import { recordAttempt } from "./record-attempt";
import { sendWebhook, type SendOutcome } from "./send-webhook";
import { observeWebhookAttempt } from "../metrics/observe";

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
  const inFlight = new Set<Promise<void>>();
  const sleep = napper();
  let stopping = false;

  async function attempt(delivery: ClaimedDelivery, input: AttemptInput): Promise<void> {
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

  function launch(delivery: ClaimedDelivery, input: AttemptInput): void {
    const running: Promise<void> = attempt(delivery, input)
      .catch((error: unknown) => log.error("webhook attempt could not be recorded", { eventId: delivery.eventId, error: String(error) }))
      .finally(() => {
        inFlight.delete(running);
        sleep.wake(); // a slot is free, and the request's next event may be due
      });
    inFlight.add(running);
  }

  const loop = (async () => {
    let lastEnqueue = -Infinity;
    while (!stopping) {
      let busy = false;
      try {
        const free = concurrency - inFlight.size;
        if (free > 0) {
          if (performance.now() - lastEnqueue >= pollMs) {
            await enqueueDeliveries({ db, now: clock(), tenantId });
            lastEnqueue = performance.now();
          }
          const now = clock();
          const claimed = await claimDeliveries({ db, now, leaseUntil: new Date(now.getTime() + leaseMs), limit: free, tenantId });
          // Claimed deliveries are attempted even when a stop came meanwhile.
          const inputs = claimed.length ? await loadAttemptInputs(db, claimed, now) : new Map<bigint, AttemptInput>();
          for (const delivery of claimed) {
            const input = inputs.get(delivery.id);
            if (input) launch(delivery, input);
          }
          busy = claimed.length === free;
        }
      } catch (error) {
        log.error("webhook worker pass failed", { error: String(error) });
      }
      if (!stopping && (!busy || inFlight.size >= concurrency)) await sleep.nap(pollMs);
    }
    await Promise.allSettled([...inFlight]);
  })();

  return {
    async stop() {
      stopping = true;
      sleep.wake();
      await loop;
    },
  };
}
