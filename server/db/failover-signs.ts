// What tells a failover apart from a database that is simply down (issue 37,
// docs/high-availability.md). Behind HAProxy's leader port the address keeps
// answering while Patroni changes leaders: a connection is accepted and closed
// at once (no member passes the /primary check), sessions are cut when the
// leader is lost, or the port still reaches the demoted member, which is
// read-only. A database that is down refuses the connection (ECONNREFUSED)
// or says it is shutting down or starting up: that is "unreachable".

const CLOSED_BY_THE_FAR_END = /Connection terminated|Server has closed the connection|Client has encountered a connection error/;
const READ_ONLY = "25006"; // read_only_sql_transaction

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
}

/** Whether `error` (or anything it wraps, as Prisma and its adapter do) looks like a leader change in progress. */
export function isFailoverSign(error: unknown): boolean {
  const pending: unknown[] = [error];
  for (let seen = 0; pending.length > 0 && seen < 16; seen++) {
    const current = pending.shift();
    if (!current || typeof current !== "object") continue;
    const { code, message, cause, meta } = current as ErrorLike;
    if (code === READ_ONLY) return true;
    if (typeof message === "string" && CLOSED_BY_THE_FAR_END.test(message)) return true;
    pending.push(cause, meta?.driverAdapterError);
  }
  return false;
}

/** The error a readiness ping throws when the leader's address reached a member in recovery (a replica). */
export function readOnlyMemberError(): Error {
  return Object.assign(new Error("the database answering at the leader's address is read-only (in recovery)"), { code: READ_ONLY });
}
