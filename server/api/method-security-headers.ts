import "server-only";
import { JSON_CONTENT_SECURITY_POLICY, STRICT_TRANSPORT_SECURITY, servedOverHttps } from "@/lib/http/security-headers";

/**
 * The security headers of a published method's answer, set here because
 * proxy.ts does not run for /api/compute/<group>/<method> (see its matcher).
 * nosniff and Referrer-Policy come from next.config.mjs, as for every path.
 */
export function withMethodSecurityHeaders(request: Request, response: Response): Response {
  response.headers.set("content-security-policy", JSON_CONTENT_SECURITY_POLICY);
  if (servedOverHttps(new URL(request.url), request.headers)) response.headers.set("strict-transport-security", STRICT_TRANSPORT_SECURITY);
  return response;
}
