import "server-only";
import { getToken } from "next-auth/jwt";
import type { Db } from "../db/client";
import { log } from "../log";
import { MissingSecretError, nextAuthSecret } from "./nextauth-secret";
import type { Principal } from "./principal";
import type { Role } from "./roles";

export type CookieJar = Record<string, string>;

/** Cookies from a `Cookie` request header (names and values URL-decoded as browsers send them). */
export function parseCookieHeader(header: string | null): CookieJar {
  const jar: CookieJar = {};
  for (const part of (header ?? "").split(";")) {
    const index = part.indexOf("=");
    if (index <= 0) continue;
    const name = part.slice(0, index).trim();
    const value = part.slice(index + 1).trim();
    try {
      jar[name] = decodeURIComponent(value);
    } catch {
      jar[name] = value;
    }
  }
  return jar;
}

/** Whether a next-auth session cookie (possibly chunked) is present at all. */
export function hasSessionCookie(jar: CookieJar): boolean {
  return Object.keys(jar).some((name) => /^(__Secure-)?next-auth\.session-token(\.\d+)?$/.test(name));
}

export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

/**
 * The signed-in user behind a next-auth session cookie, with the role grants
 * they hold now (read from the database on every call, so a removed grant or
 * user takes effect at once). null: no valid session.
 */
export async function principalFromSession(db: Db, jar: CookieJar): Promise<{ principal: Principal; user: SessionUser } | null> {
  if (!hasSessionCookie(jar)) return null;
  const secret = await sessionSecret();
  if (!secret) return null;
  // `headers: {}`: only the cookie counts here, never an Authorization header.
  const token = await getToken({ req: { cookies: jar, headers: {} } as never, secret });
  const userId = typeof token?.sub === "string" ? token.sub : null;
  if (!userId) return null;
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { id: true, email: true, name: true, disabledAt: true, grants: { select: { tenantId: true, poolId: true, role: true } } },
  });
  // a vanished or disabled user's session counts for nothing (`users disable` takes effect at once)
  if (!user || user.disabledAt) return null;
  return {
    user: { id: user.id, email: user.email, name: user.name },
    principal: {
      kind: "user",
      id: user.id,
      grants: user.grants.map((grant) => ({ ...grant, role: grant.role as Role })),
    },
  };
}

/** Without a secret there are no sessions (the sign-in page says why); a cookie then counts for nothing. */
async function sessionSecret(): Promise<string | null> {
  try {
    return await nextAuthSecret();
  } catch (error) {
    if (!(error instanceof MissingSecretError)) throw error;
    log.warn("a session cookie was sent, but console sign-in is not configured", { reason: error.message });
    return null;
  }
}
