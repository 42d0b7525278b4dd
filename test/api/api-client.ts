import http from "node:http";
import { expect, inject } from "vitest";
import { expectDeclaredResponse } from "./declared-response";

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** The running app server's URL for an absolute path ("/api/..."). */
export const apiUrl = (path: string, baseUrl: string = inject("baseUrl")) => `${baseUrl}${path}`;

function apiResponse<T>(status: number, text: string, headers: Headers): ApiResponse<T> {
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status, body: parsed as T, text, headers };
}

export async function toApiResponse<T>(response: Response): Promise<ApiResponse<T>> {
  return apiResponse<T>(response.status, await response.text(), response.headers);
}

/** POSTs a JSON body (or raw text) to a method with a bearer credential; a success must match the method's declared response. */
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
  const answer = await toApiResponse<T>(response);
  expectDeclaredResponse(method, answer);
  return answer;
}

/** Any request to any path, e.g. a streamed (chunked) body or an unknown route. */
export async function httpRequest<T = any>(
  path: string,
  init: RequestInit & { duplex?: "half" } = {},
  baseUrl?: string,
): Promise<ApiResponse<T>> {
  return toApiResponse<T>(await fetch(apiUrl(path, baseUrl), init));
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

/**
 * POSTs `body` with node:http: with a Content-Length, or `chunked` (written in
 * 8 KiB pieces, no Content-Length). `agent` decides connection reuse; the
 * default opens a connection of its own and closes it after the answer.
 */
export function rawPost<T = any>(
  path: string,
  body: string,
  options: { chunked?: boolean; headers?: Record<string, string>; agent?: http.Agent } = {},
): Promise<ApiResponse<T>> {
  const bytes = Buffer.from(body, "utf8");
  const headers: Record<string, string | number> = { "content-type": "application/json", ...options.headers };
  if (!options.chunked) headers["content-length"] = bytes.byteLength;
  return new Promise((resolve, reject) => {
    const request = http.request(
      apiUrl(path),
      { method: "POST", headers, agent: options.agent ?? new http.Agent({ keepAlive: false }) },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            for (const item of [value ?? []].flat()) responseHeaders.append(name, item);
          }
          resolve(apiResponse<T>(response.statusCode ?? 0, Buffer.concat(chunks).toString("utf8"), responseHeaders));
        });
      },
    );
    request.on("error", reject);
    if (!options.chunked) return void request.end(bytes);
    for (let offset = 0; offset < bytes.byteLength; offset += 8 * 1024) request.write(bytes.subarray(offset, offset + 8 * 1024));
    request.end();
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
