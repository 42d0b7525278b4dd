// The security headers every answer carries (issue 14 item 4), in one place:
// proxy.ts sets them on pages and on the API paths it runs for; the published
// methods set them themselves (server/api/method-security-headers.ts), because
// the proxy is kept off their path — it cost about 0.6 ms of each call's
// 3.5 ms (issue 16, `npm run bench:profile -- --scenario approve`).

export const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

/**
 * For HTML: scripts only from this origin or carrying this answer's nonce
 * (Next.js reads it from the request's CSP header and puts it on its own
 * inline scripts); never framed. Styles may be inline: React and sonner set
 * style attributes, and a style cannot run code.
 */
export function pageContentSecurityPolicy(nonce: string, development: boolean): string {
  const evalForDevTools = development ? " 'unsafe-eval'" : ""; // React's dev tooling evals
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${evalForDevTools}`,
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

/**
 * For a JSON answer: nothing may load or run at all, not even by nonce, and it
 * is never framed (OWASP's REST recommendation). Stricter than the pages'.
 */
export const JSON_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Over https (the request's URL, a TLS-terminating proxy's X-Forwarded-Proto, or the configured URL): browsers keep to https for a year. */
export function servedOverHttps(url: URL, headers: Headers, configuredUrl = process.env.NEXTAUTH_URL ?? ""): boolean {
  return (
    url.protocol === "https:" || headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" || configuredUrl.startsWith("https://")
  );
}
