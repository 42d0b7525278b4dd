import "server-only";
import pLimit, { type LimitFunction } from "p-limit";
import { env } from "../env";

// A join is CPU work (the CSR's signature, the certificate's) and then an
// interactive transaction whose statements each wait for this process's
// event loop. Let a whole boot storm in at once and every join's
// transaction stretches behind everyone's CPU work, holding the token's row
// and the pool's flood lock past Prisma's transaction timeout (bench: 503s
// and a p99 of 13 s at 32 at once). So at most BC_JOIN_CONCURRENCY joins of
// a process run at a time and the others wait, in arrival order, before
// doing any work. This holds no state of the joins: any instance may serve
// any join, and correctness never rests on it.

let limit: LimitFunction | undefined;

export function inJoinTurn<T>(join: () => Promise<T>): Promise<T> {
  limit ??= pLimit(env().BC_JOIN_CONCURRENCY);
  return limit(join);
}

/** Joins of this process running, and waiting for their turn (for /metrics). */
export function joinTurns(): { running: number; waiting: number } {
  return { running: limit?.activeCount ?? 0, waiting: limit?.pendingCount ?? 0 };
}
