import "server-only";
import { ApiError } from "../api/errors";
import { env } from "../env";

/**
 * The console's own origin: NEXTAUTH_URL's when set (the origin the console
 * is published at), otherwise the one the request was addressed to (its
 * Host header), which is what a same-origin browser request carries.
 */
export function consoleOrigin(request: Request): string {
  const configured = env().NEXTAUTH_URL;
  if (configured) return new URL(configured).origin;
  const url = new URL(request.url);
  const host = request.headers.get("host");
  return host ? `${url.protocol}//${host}` : url.origin;
}

/**
 * CSRF guard for cookie sessions (SPEC B4): a mutation authenticated by the
 * browser's session cookie must come from the console's own origin. Browsers
 * always send Origin on a cross-site POST, so a missing or foreign Origin is
 * refused; service-key calls carry no ambient credential and are not checked.
 */
export function assertSameOriginMutation(request: Request): void {
  const origin = request.headers.get("origin");
  if (origin && origin === consoleOrigin(request)) return;
  throw new ApiError(
    "PERMISSION_DENIED",
    origin
      ? `cross-origin request refused: a console session may only change data from ${consoleOrigin(request)}, not ${origin}`
      : "cross-origin request refused: a mutation with a console session must carry the console's Origin header",
  );
}
