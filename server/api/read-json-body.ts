import { ApiError } from "./errors";

export const MAX_BODY_BYTES = 64 * 1024;

const tooLarge = (maxBytes: number) =>
  new ApiError("PAYLOAD_TOO_LARGE", `request body is larger than ${maxBytes} bytes (${maxBytes / 1024} KiB)`);

/**
 * Reads the body as one JSON object, refusing more than `maxBytes` (64 KiB unless a method declares more) without
 * buffering it: the declared Content-Length is checked first, and the stream
 * is cut off as soon as it passes the limit (a chunked body has no length).
 */
export async function readJsonBody(request: Request, maxBytes: number = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(await readLimitedBody(request, maxBytes));
  if (text.trim() === "") throw new ApiError("INVALID_ARGUMENT", "request body must be a JSON object");

  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError("INVALID_ARGUMENT", "request body is not valid JSON");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ApiError("INVALID_ARGUMENT", "request body must be a JSON object");
  }
  return parsed as Record<string, unknown>;
}

/** The body's bytes, at most `maxBytes` (the declared length checked first, a chunked body cut off), else PAYLOAD_TOO_LARGE. */
export async function readLimitedBody(request: Request, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      // The client went away mid-body (Node reports "aborted", ECONNRESET):
      // nobody is left to answer, and it is not the database's fault.
      throw new ApiError("INVALID_ARGUMENT", "request body could not be read: the connection was closed");
    });
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
