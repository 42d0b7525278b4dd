import "server-only";
import { ApiError } from "../api/errors";
import { consume, rateLimiter } from "../auth/rate-limits";
import { env } from "../env";
import { log } from "../log";
import type { JoinCredential } from "./join-credential";

/**
 * At most BC_JOIN_MAX_PER_MINUTE joins per credential per minute, counted in
 * the database (every instance shares the count): a leaked join token cannot
 * mint requests faster than a fleet's boot storm needs. Beyond: 429 with
 * Retry-After, before any work is done.
 */
export async function capJoinRate(credential: JoinCredential): Promise<void> {
  const limiter = await rateLimiter("join", { points: env().BC_JOIN_MAX_PER_MINUTE, durationSeconds: 60 });
  const result = await consume(limiter, credential.actor);
  if (!result.refused) return;
  log.warn("join refused: rate cap", { credential: credential.actor, retryAfterSeconds: result.retryAfterSeconds });
  throw new ApiError(
    "RESOURCE_EXHAUSTED",
    `too many joins with this credential (at most ${env().BC_JOIN_MAX_PER_MINUTE} a minute); try again in ${result.retryAfterSeconds} s`,
    undefined,
    result.retryAfterSeconds,
  );
}
