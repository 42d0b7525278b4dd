import "server-only";
import type { Db } from "../db/client";
import { ApiError } from "../api/errors";
import { parseBearer, secretMatches } from "./credentials";
import type { Principal } from "./principal";
import type { Role } from "./roles";
import { parseCookieHeader, principalFromSession } from "./session-principal";

const unauthenticated = (message: string) => new ApiError("UNAUTHENTICATED", message);

/**
 * Authenticates a caller of the published methods: a service key
 * (`Authorization: Bearer bcsk_<id>.<secret>`), or, with no Authorization
 * header, the console's next-auth session cookie (SPEC B4). Unknown, revoked
 * and wrong keys all get the same answer.
 */
export async function authenticate(db: Db, request: Request): Promise<Principal> {
  const authorization = request.headers.get("authorization");
  if (!authorization) {
    const session = await principalFromSession(db, parseCookieHeader(request.headers.get("cookie")));
    if (session) return session.principal;
    throw unauthenticated("missing credentials: send Authorization: Bearer bcsk_<id>.<secret>, or sign in to the console");
  }
  const credential = parseBearer(authorization);
  if (!credential || credential.prefix !== "bcsk") {
    throw unauthenticated("invalid credentials: expected Authorization: Bearer bcsk_<id>.<secret>");
  }
  const key = await db.serviceKey.findUnique({
    where: { id: credential.id },
    select: { secretHash: true, revokedAt: true, grants: { select: { tenantId: true, poolId: true, role: true } } },
  });
  if (!secretMatches(credential.secret, key?.secretHash) || !key || key.revokedAt) {
    throw unauthenticated("invalid service key");
  }
  return {
    kind: "service-key",
    id: `bcsk_${credential.id}`,
    grants: key.grants.map((grant) => ({ ...grant, role: grant.role as Role })),
  };
}
