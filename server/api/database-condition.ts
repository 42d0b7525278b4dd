// Errors that mean "the database cannot be reached right now" rather than a
// bug: connection refused or reset, server shutting down, too many
// connections, pool timeouts. Driver adapters wrap the cause (`cause`, or for
// raw queries Prisma's P2010 `meta.driverAdapterError`), so walk all of them.
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
  "53300", // PostgreSQL: shutdown, crash, cannot connect now, too many connections
  // read-only transaction: the leader's address reached a member that is no longer (or not
  // yet) the primary, for the second or two of a failover before HAProxy's check notices
  "25006",
  "P1001",
  "P1002",
  "P1017",
  "P2024", // Prisma: unreachable, timed out, closed, pool timeout
]);
const UNAVAILABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "TooManyConnections", "SocketTimeout"]);
// What node-postgres and Prisma say, with no code, when the connection is gone:
// a pooled client whose socket broke (PostgreSQL restarted under it: it is not
// returned to the pool, the next query gets a fresh one), a pool that timed
// out connecting, a server that closed the connection mid-query.
const UNAVAILABLE_MESSAGES = new RegExp(
  [
    "ECONNREFUSED",
    "connect ETIMEDOUT",
    "Connection terminated", // "… unexpectedly", "… due to connection timeout"
    "Client has encountered a connection error and is not queryable",
    "Client was closed and is not queryable",
    "timeout exceeded when trying to connect",
    "Server has closed the connection",
    "Can't reach database server",
  ].join("|"),
);

// Errors that mean "reachable, but could not finish this now": the
// transaction was rolled back whole, so trying again later is safe. A burst of
// machines joining one pool through one token queues on that token's row;
// past Prisma's interactive-transaction timeout the wait ends in P2028.
// A deadlock or a serialization failure rolls the loser's transaction back
// whole too: PostgreSQL's own advice is to try it again (Prisma: P2034).
const BUSY_CODES = new Set([
  "55P03", // PostgreSQL: lock_not_available
  "57014", // query_canceled (statement_timeout)
  "40P01", // deadlock_detected
  "40001", // serialization_failure
  "P2034", // Prisma: "Transaction failed due to a write conflict or a deadlock. Please retry your transaction"
]);
const TRANSACTION_TIMED_OUT = /expired transaction|Unable to start a transaction in the given time/;

interface ErrorLike {
  code?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
}

export type DatabaseCondition = "unreachable" | "busy";

/** Whether `error` (or anything it wraps) says the database is unreachable or too busy, rather than a bug. */
export function databaseCondition(error: unknown): DatabaseCondition | undefined {
  const pending: unknown[] = [error];
  for (let seen = 0; pending.length > 0 && seen < 16; seen++) {
    const current = pending.shift();
    if (!current || typeof current !== "object") continue;
    const { code, kind, message, cause, meta } = current as ErrorLike;
    if (typeof code === "string" && UNAVAILABLE_CODES.has(code)) return "unreachable";
    if (typeof kind === "string" && UNAVAILABLE_KINDS.has(kind)) return "unreachable";
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.test(message)) return "unreachable";
    if (typeof code === "string" && BUSY_CODES.has(code)) return "busy";
    if (code === "P2028" && typeof message === "string" && TRANSACTION_TIMED_OUT.test(message)) return "busy";
    pending.push(cause, meta?.driverAdapterError);
  }
  return undefined;
}
