import { NextResponse, type NextRequest } from "next/server";

// Runs before every page and API answer (static build assets aside, whose
// headers come from next.config.mjs): the security headers, and for console
// pages the sign-in redirect.

/**
 * Scripts only from this origin or carrying this request's nonce (Next.js
 * reads it from the request's CSP header and puts it on its own inline
 * scripts); never framed. Styles may be inline: React and sonner set style
 * attributes, and a style cannot run code.
 */
function contentSecurityPolicy(nonce: string): string {
  const dev = process.env.NODE_ENV === "development" ? " 'unsafe-eval'" : ""; // React's dev tooling evals
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Over https (the configured URL, or a TLS-terminating proxy says so): browsers keep to https for a year. */
function servedOverHttps(request: NextRequest): boolean {
  return (
    request.nextUrl.protocol === "https:" ||
    request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" ||
    (process.env.NEXTAUTH_URL ?? "").startsWith("https://")
  );
}

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
  const csp = contentSecurityPolicy(nonce);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", csp);
  const response = signInRedirect(request) ?? NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", csp);
  if (servedOverHttps(request)) response.headers.set("strict-transport-security", "max-age=31536000; includeSubDomains");
  return response;
}

export const config = {
  // Everything but the build's static assets (headers from next.config.mjs).
  matcher: ["/((?!_next/static|_next/image|favicon\\.ico|icon\\.svg).*)"],
};
