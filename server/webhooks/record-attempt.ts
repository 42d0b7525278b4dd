import "server-only";
import type { Db } from "../db/client";
import { afterFailure, type RetryPolicy } from "./backoff";
import type { ClaimedDelivery } from "./claim-deliveries";
import type { SendOutcome } from "./send-webhook";

/**
 * Records one attempt and what follows from it, in one transaction: the
 * attempt row; the delivery delivered, dead, or due again after a backoff;
 * the subscription's health (a success ends a run of failures). A delivery
 * that is no longer pending (a worker whose lease ran out raced another, the
 * abnormal path) keeps its state; one deleted meanwhile (its subscription or
 * event went) records nothing.
 */
export async function recordAttempt(input: {
  db: Db;
  delivery: ClaimedDelivery;
  outcome: SendOutcome;
  /** when the attempt started */
  at: Date;
  /** when it ended */
  now: Date;
  policy: RetryPolicy;
  random?: () => number;
}): Promise<"delivered" | "dead" | "retry" | "gone"> {
  const { db, delivery, outcome, at, now, policy } = input;
  const next = outcome.ok ? null : afterFailure(delivery, now, policy, input.random);
  return db.$transaction(async (tx) => {
    const current = await tx.webhookDelivery.findUnique({ where: { id: delivery.id }, select: { status: true } });
    if (!current) return "gone";
    await tx.webhookAttempt.create({
      data: { deliveryId: delivery.id, at, durationMs: outcome.durationMs, statusCode: outcome.statusCode, error: outcome.error },
    });
    const result = next === null ? "delivered" : next.kind;
    if (current.status === "pending") {
      await tx.webhookDelivery.update({
        where: { id: delivery.id },
        data:
          next === null
            ? { status: "delivered", deliveredAt: now, lastAttemptAt: at }
            : next.kind === "dead"
              ? { status: "dead", lastAttemptAt: at }
              : { nextAttemptAt: next.at, lastAttemptAt: at },
      });
    }
    await tx.$executeRaw`
      UPDATE webhook_subscriptions SET
        last_attempt_at = GREATEST(last_attempt_at, ${at}),
        consecutive_failures = CASE WHEN ${outcome.ok} THEN 0 ELSE consecutive_failures + 1 END,
        failing_since = CASE WHEN ${outcome.ok} THEN NULL ELSE COALESCE(failing_since, ${at}) END,
        last_success_at = CASE WHEN ${outcome.ok} THEN ${at} ELSE last_success_at END,
        last_error = CASE WHEN ${outcome.ok} THEN NULL ELSE ${outcome.error} END
      WHERE id = ${delivery.subscriptionId}`;
    return result;
  });
}
