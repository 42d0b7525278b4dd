// Errors that mean "the database cannot be reached right now" rather than a
// bug: connection refused or reset, server shutting down, too many
// connections, pool timeouts. Driver adapters wrap the cause (`cause`, or for
// raw queries Prisma's P2010 `meta.driverAdapterError`), so walk all of them.
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "EPIPE",
  "57P01", "57P02", "57P03", "53300", // PostgreSQL: shutdown, crash, cannot connect now, too many connections
  "P1001", "P1002", "P1017", "P2024", // Prisma: unreachable, timed out, closed, pool timeout
]);
const UNAVAILABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "TooManyConnections", "SocketTimeout"]);

interface ErrorLike {
  code?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
}

export function isDatabaseUnavailable(error: unknown): boolean {
  const pending: unknown[] = [error];
  for (let seen = 0; pending.length > 0 && seen < 16; seen++) {
    const current = pending.shift();
    if (!current || typeof current !== "object") continue;
    const { code, kind, message, cause, meta } = current as ErrorLike;
    if (typeof code === "string" && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof kind === "string" && UNAVAILABLE_KINDS.has(kind)) return true;
    if (typeof message === "string" && /ECONNREFUSED|Connection terminated|connect ETIMEDOUT/.test(message)) return true;
    pending.push(cause, meta?.driverAdapterError);
  }
  return false;
}
