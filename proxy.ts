import { NextResponse, type NextRequest } from "next/server";

// Console pages without any session cookie go to the sign-in page, which
// brings the user back afterwards. Only the cookie's presence is checked
// here; pages validate the session itself (server/auth/current-user.ts).
export function proxy(request: NextRequest) {
  const signedIn = request.cookies.getAll().some((cookie) => /^(__Secure-)?next-auth\.session-token/.test(cookie.name));
  if (signedIn) return NextResponse.next();
  const signIn = new URL("/signin", request.url);
  signIn.searchParams.set("callbackUrl", `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.redirect(signIn);
}

export const config = {
  // Everything but the API, the sign-in page, the public API reference and static assets.
  matcher: ["/((?!api/|signin|docs(?:/|$)|_next/|favicon\\.ico|icon\\.svg).*)"],
};
