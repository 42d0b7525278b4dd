import { inject } from "vitest";

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** POSTs a JSON body (or raw text) to a method with a bearer credential. */
export async function callMethod<T = any>(
  method: string,
  body: unknown,
  options: { bearer?: string | null; rawBody?: string; headers?: Record<string, string>; httpMethod?: string } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  const httpMethod = options.httpMethod ?? "POST";
  const response = await fetch(`${inject("baseUrl")}/api/compute/${method}`, {
    method: httpMethod,
    headers,
    body: httpMethod === "GET" || httpMethod === "HEAD" ? undefined : (options.rawBody ?? JSON.stringify(body)),
  });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed as T, text, headers: response.headers };
}

/** The error envelope's code, for compact assertions. */
export const errorCode = (response: ApiResponse) => response.body?.error?.code as string | undefined;
