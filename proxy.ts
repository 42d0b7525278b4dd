import { NextResponse, type NextRequest } from "next/server";
import { pageContentSecurityPolicy, servedOverHttps, STRICT_TRANSPORT_SECURITY } from "@/lib/http/security-headers";

// Runs before every page and API answer (static build assets and the
// published methods aside, see the matcher): the security headers, and for
// console pages the sign-in redirect.

function signInRedirect(request: NextRequest): NextResponse | null {
  const path = request.nextUrl.pathname;
  // the API, the sign-in page, the public API reference and /metrics (its own bearer) need no session
  if (path.startsWith("/api/") || path === "/signin" || path === "/metrics" || path === "/docs" || path.startsWith("/docs/")) return null;
  const signedIn = request.cookies.getAll().some((cookie) => /^(__Secure-)?next-auth\.session-token/.test(cookie.name));
  if (signedIn) return null;
  // Only the cookie's presence is checked here; pages validate the session itself (server/auth/current-user.ts).
  const signIn = new URL("/signin", request.url);
  signIn.searchParams.set("callbackUrl", `${path}${request.nextUrl.search}`);
  return NextResponse.redirect(signIn);
}

export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const csp = pageContentSecurityPolicy(nonce, process.env.NODE_ENV === "development");
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", csp);
  const response = signInRedirect(request) ?? NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", csp);
  if (servedOverHttps(request.nextUrl, request.headers)) response.headers.set("strict-transport-security", STRICT_TRANSPORT_SECURITY);
  return response;
}

export const config = {
  // Everything but the build's static assets (headers from next.config.mjs)
  // and the published methods, /api/compute/<group>/<method>, which set their
  // own (server/api/method-security-headers.ts): a proxy run costs each call
  // about 0.6 ms. Other paths under /api/compute (Next's 404) still pass here.
  matcher: ["/((?!api/compute/[^/]+/[^/]+/?$|_next/static|_next/image|favicon\\.ico|icon\\.svg).*)"],
};
