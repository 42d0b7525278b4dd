// Errors that mean "the database cannot be reached right now" rather than a
// bug: connection refused or reset, server shutting down, too many
// connections, pool timeouts. Driver adapters wrap the cause, so walk it.
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "EPIPE",
  "57P01", "57P02", "57P03", "53300", // PostgreSQL: shutdown, crash, cannot connect now, too many connections
  "P1001", "P1002", "P1017", "P2024", // Prisma: unreachable, timed out, closed, pool timeout
]);
const UNAVAILABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "TooManyConnections", "SocketTimeout"]);

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    if (typeof current !== "object") return false;
    const { code, kind, cause, message } = current as { code?: unknown; kind?: unknown; cause?: unknown; message?: unknown };
    if (typeof code === "string" && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof kind === "string" && UNAVAILABLE_KINDS.has(kind)) return true;
    if (typeof message === "string" && /ECONNREFUSED|Connection terminated|connect ETIMEDOUT/.test(message)) return true;
    current = cause;
  }
  return false;
}
