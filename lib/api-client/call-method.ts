import type { ErrorBody } from "@/lib/api/error-envelope";
import { ApiClientError } from "./api-client-error";
import { methodPath } from "@/lib/api/method-path";

/**
 * POSTs to a published method as the signed-in console user: the session
 * cookie authenticates it and the browser adds the Origin header the
 * server's CSRF check wants. Resolves to the body, or throws ApiClientError.
 */
export async function callMethod<Output>(name: string, input: unknown, signal?: AbortSignal): Promise<Output> {
  let response: Response;
  try {
    response = await fetch(methodPath(name), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(input),
      credentials: "same-origin",
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiClientError("NETWORK", "the server could not be reached; check your connection", 0);
  }
  const requestId = response.headers.get("x-request-id");
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) return body as Output;
  const envelope = (body as Partial<ErrorBody> | null)?.error;
  if (envelope?.code) {
    throw new ApiClientError(envelope.code, envelope.message, response.status, envelope.details ?? [], requestId);
  }
  throw new ApiClientError("INTERNAL", `unexpected answer (HTTP ${response.status})`, response.status, [], requestId);
}
