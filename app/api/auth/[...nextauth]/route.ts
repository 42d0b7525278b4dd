import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { nextAuthOptions } from "@/server/auth/next-auth-options";
import { errorResponse, newRequestId } from "@/server/api/responses";
import { readLimitedBody } from "@/server/api/read-json-body";
import { log } from "@/server/log";

type Context = { params: Promise<{ nextauth: string[] }> };

/** Sign-in forms and OIDC callbacks are small; an anonymous caller must not make us buffer more. */
const MAX_AUTH_BODY_BYTES = 8 * 1024;

// next-auth v4 on the App Router. The options are built per request (not at
// import) so that `next build` needs no secret and a missing one fails here,
// with a readable message, rather than at start.
async function handler(request: NextRequest, context: Context): Promise<Response> {
  let limited: NextRequest;
  try {
    limited = await withLimitedBody(request);
  } catch (error) {
    return errorResponse(error, newRequestId());
  }
  let options;
  try {
    options = await nextAuthOptions();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.error("console sign-in is not configured", { error: message });
    return Response.json({ error: { code: "INTERNAL", message } }, { status: 500 });
  }
  return NextAuth(options)(limited, context);
}

/** The request with its body read (at most MAX_AUTH_BODY_BYTES, chunked or not) for next-auth to parse. */
async function withLimitedBody(request: NextRequest): Promise<NextRequest> {
  if (request.method === "GET" || request.method === "HEAD") return request;
  const body = await readLimitedBody(request, MAX_AUTH_BODY_BYTES);
  return new NextRequest(request.url, { method: request.method, headers: request.headers, body: new Uint8Array(body) });
}

export { handler as GET, handler as POST };
