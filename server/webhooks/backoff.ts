// When a failed delivery is tried again: exponential backoff with jitter.

export interface RetryPolicy {
  /** the delay after the first failure, before jitter */
  baseMs: number;
  /** no delay is longer */
  capMs: number;
  /** a delivery still failing this long after it was made is dead */
  giveUpAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseMs: 10_000,
  capMs: 3_600_000,
  giveUpAfterMs: 24 * 3_600_000,
};

/**
 * The delay after the `failures`-th failure: base·2^(failures−1), capped,
 * then "equal jitter" (between half and all of it), so retries of many
 * deliveries spread out without any coming back sooner than half the step.
 */
export function retryDelayMs(failures: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, Math.min(failures - 1, 40)));
  return Math.round(step / 2 + (step / 2) * random());
}

/**
 * After a failed attempt at `now`: dead once the delivery is `giveUpAfterMs`
 * old, else the next attempt's time (never later than that deadline, so the
 * last attempt comes at the deadline).
 */
export function afterFailure(
  delivery: { attempts: number; createdAt: Date },
  now: Date,
  policy: RetryPolicy,
  random?: () => number,
): { kind: "dead" } | { kind: "retry"; at: Date } {
  const deadline = delivery.createdAt.getTime() + policy.giveUpAfterMs;
  if (now.getTime() >= deadline) return { kind: "dead" };
  const at = Math.min(deadline, now.getTime() + retryDelayMs(delivery.attempts, policy, random));
  return { kind: "retry", at: new Date(at) };
}
