import "server-only";
import { RateLimiterPrisma, RateLimiterRes } from "rate-limiter-flexible";
import { getDb } from "../db/client";

// Counters in PostgreSQL (the `rate_limits` table, through rate-limiter-flexible's
// Prisma store), so that every app instance shares them; the embedded database
// works the same way. One limiter object per process and name: they hold no
// counts, only their settings and the store's client.

export interface LimitSettings {
  points: number;
  durationSeconds: number;
  /** once the points are spent: refuse for this long (default: the rest of the window) */
  blockSeconds?: number;
}

const limiters = new Map<string, Promise<RateLimiterPrisma>>();

export function rateLimiter(name: string, settings: LimitSettings): Promise<RateLimiterPrisma> {
  const id = `${name}:${settings.points}:${settings.durationSeconds}:${settings.blockSeconds ?? 0}`;
  let limiter = limiters.get(id);
  if (!limiter) {
    limiter = getDb().then(
      (db) =>
        new RateLimiterPrisma({
          storeClient: db,
          tableName: "rateLimit",
          keyPrefix: name,
          points: settings.points,
          duration: settings.durationSeconds,
          blockDuration: settings.blockSeconds ?? 0,
        }),
    );
    limiter.catch(() => limiters.delete(id)); // the database was away: try again next time
    limiters.set(id, limiter);
  }
  return limiter;
}

/** Spends `points`; the counter after it, or `refused` with when to try again when the limit is spent. */
export async function consume(
  limiter: RateLimiterPrisma,
  key: string,
  points = 1,
): Promise<{ refused: false; consumed: number } | { refused: true; retryAfterSeconds: number }> {
  try {
    const result = await limiter.consume(key, points);
    return { refused: false, consumed: result.consumedPoints };
  } catch (rejection) {
    // the library rejects with a RateLimiterRes when the limit is spent, with an Error when its store failed
    if (rejection instanceof RateLimiterRes) return { refused: true, retryAfterSeconds: retryAfterSeconds(rejection) };
    throw rejection;
  }
}

/** Seconds until `key` may try again when it has spent all `points` in its window (nothing is spent); null: it may now. */
export async function refusedFor(limiter: RateLimiterPrisma, key: string, points: number): Promise<number | null> {
  const result = await limiter.get(key);
  if (!result || result.consumedPoints < points) return null;
  return retryAfterSeconds(result);
}

function retryAfterSeconds(result: RateLimiterRes): number {
  return Math.max(1, Math.ceil(result.msBeforeNext / 1000));
}
