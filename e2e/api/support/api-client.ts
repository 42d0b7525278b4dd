import { expect, inject } from "vitest";

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** The running app server's URL for an absolute path ("/api/..."). */
export const apiUrl = (path: string, baseUrl: string = inject("baseUrl")) => `${baseUrl}${path}`;

async function toApiResponse<T>(response: Response): Promise<ApiResponse<T>> {
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed as T, text, headers: response.headers };
}

/** POSTs a JSON body (or raw text) to a method with a bearer credential. */
export async function callMethod<T = any>(
  method: string,
  body: unknown,
  options: { bearer?: string | null; rawBody?: string; headers?: Record<string, string>; httpMethod?: string; baseUrl?: string } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  const httpMethod = options.httpMethod ?? "POST";
  const response = await fetch(apiUrl(`/api/compute/${method}`, options.baseUrl), {
    method: httpMethod,
    headers,
    body: httpMethod === "GET" || httpMethod === "HEAD" ? undefined : (options.rawBody ?? JSON.stringify(body)),
  });
  return toApiResponse<T>(response);
}

/** Any request to any path, e.g. a streamed (chunked) body or an unknown route. */
export async function httpRequest<T = any>(
  path: string,
  init: RequestInit & { duplex?: "half" } = {},
): Promise<ApiResponse<T>> {
  return toApiResponse<T>(await fetch(apiUrl(path), init));
}

/** A body sent as a stream of chunks: no Content-Length, Transfer-Encoding: chunked. */
export function chunkedBody(text: string, chunkBytes = 8 * 1024): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + chunkBytes));
      offset += chunkBytes;
    },
  });
}

/** The error envelope's code, for compact assertions. */
export const errorCode = (response: ApiResponse) => response.body?.error?.code as string | undefined;

/** `bcsk_<id>`: how a service key is named as decidedBy and as an event's actor. */
export const principalOf = (bearer: string) => bearer.slice(0, bearer.indexOf("."));

// A stack frame ("    at fn (file:1:2)"), a source path or a file:line reference.
const INTERNALS = [/\n\s*at /, /\bat .+:\d+:\d+/, /\/work\//, /node_modules/, /\.(ts|js|mjs|cjs):\d+/, /webpack|turbopack/i];

/** An error body never shows internals (SPEC B3: INTERNAL never carries a stack trace). */
export function expectNoInternals(response: ApiResponse): void {
  for (const pattern of INTERNALS) expect(response.text, `body shows internals (${pattern})`).not.toMatch(pattern);
}

/**
 * SPEC B3: the status of `code`, the envelope `{error:{code,message,details?}}`
 * and nothing else, an x-request-id, no internals.
 */
export function expectError(response: ApiResponse, status: number, code: string): void {
  expect({ status: response.status, code: errorCode(response) }, response.text).toEqual({ status, code });
  expect(Object.keys(response.body)).toEqual(["error"]);
  const { error } = response.body;
  expect(Object.keys(error).every((key) => ["code", "message", "details"].includes(key))).toBe(true);
  expect(typeof error.message).toBe("string");
  expect(error.message.length).toBeGreaterThan(0);
  if ("details" in error) {
    expect(Array.isArray(error.details)).toBe(true);
    for (const detail of error.details) {
      expect(Object.keys(detail).sort()).toEqual(["field", "message"]);
      expect(typeof detail.field).toBe("string");
      expect(typeof detail.message).toBe("string");
    }
  }
  expect(response.headers.get("x-request-id")).toBeTruthy();
  expectNoInternals(response);
}
