import { databaseCondition } from "../api/database-condition";

// A failover cuts every pooled connection (HAProxy closes the sessions of a
// member it marks down); node-postgres drops a broken client from the pool,
// but a query already handed one fails. For a read, asking again on a fresh
// connection is always safe. A write is never asked again here: a connection
// lost after COMMIT was sent leaves the outcome unknown, so it becomes a 503
// and the caller's retry meets the domain's idempotency (the transition is
// found done, not applied twice).

/** Prisma's model operations that only read. */
export const READ_OPERATIONS: ReadonlySet<string> = new Set([
  "findUnique",
  "findUniqueOrThrow",
  "findFirst",
  "findFirstOrThrow",
  "findMany",
  "count",
  "aggregate",
  "groupBy",
]);

/** Long enough for HAProxy to have moved on from a member it just marked down (checks every 0.5–1 s). */
export const READ_RETRY_DELAY_MS = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `run`; a read that fails because the database is unreachable runs once
 * more after a short wait. If that fails too, the first error is what the
 * caller sees (inside a transaction the second try fails for the dead
 * transaction instead, which would hide why).
 */
export function retryReadOnce<T>(operation: string, run: () => Promise<T>, wait: (ms: number) => Promise<unknown> = sleep): Promise<T> {
  return READ_OPERATIONS.has(operation) ? askAgainIfUnreachable(run, wait) : run();
}

/** retryReadOnce for a raw statement its caller knows only reads (a SELECT through $queryRaw). */
export function retryRawReadOnce<T>(run: () => Promise<T>, wait: (ms: number) => Promise<unknown> = sleep): Promise<T> {
  return askAgainIfUnreachable(run, wait);
}

async function askAgainIfUnreachable<T>(run: () => Promise<T>, wait: (ms: number) => Promise<unknown>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (databaseCondition(error) !== "unreachable") throw error;
    await wait(READ_RETRY_DELAY_MS);
    try {
      return await run();
    } catch {
      throw error;
    }
  }
}
