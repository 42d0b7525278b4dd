import "server-only";
import { ApiError } from "./errors";
import { databaseCondition } from "./database-condition";
import { log } from "../log";
import { newId } from "@/lib/ids";

export function newRequestId(): string {
  return newId("req");
}

export function jsonResponse(status: number, body: unknown, requestId: string, headers: HeadersInit = {}): Response {
  return Response.json(body, {
    status,
    headers: { "x-request-id": requestId, "cache-control": "no-store", ...headers },
  });
}

/**
 * The only place an error becomes a Response: ApiErrors keep their code, an
 * unreachable or too-busy database is UNAVAILABLE, anything else is a generic INTERNAL
 * that never shows internals (the details go to the log, under the request id).
 */
export function errorResponse(error: unknown, requestId: string, headers: HeadersInit = {}): Response {
  if (error instanceof ApiError) {
    // The rest of a refused body is still on the wire: close the connection
    // rather than leave a kept-alive socket that will never answer again.
    const close: HeadersInit = error.code === "PAYLOAD_TOO_LARGE" ? { connection: "close" } : {};
    const retry: HeadersInit = error.retryAfterSeconds ? { "retry-after": String(error.retryAfterSeconds) } : {};
    return jsonResponse(error.httpStatus, error.toBody(), requestId, { ...close, ...retry, ...headers });
  }
  const condition = databaseCondition(error);
  if (condition) {
    log.error(condition === "busy" ? "database busy" : "database unavailable", { requestId, error: String(error) });
    const message =
      condition === "busy"
        ? "the database was too busy to finish this in time, or met a conflicting change; its transaction was rolled back; try again shortly"
        : "the database is unavailable; try again shortly";
    const unavailable = new ApiError("UNAVAILABLE", message);
    return jsonResponse(503, unavailable.toBody(), requestId, { "retry-after": "5", ...headers });
  }
  log.error("unhandled error", { requestId, error: error instanceof Error ? error.stack : String(error) });
  const internal = new ApiError("INTERNAL", `internal error; quote request id ${requestId}`);
  return jsonResponse(500, internal.toBody(), requestId, headers);
}
