import "server-only";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { ApiError } from "../api/errors";
import { parseBearer, secretMatches } from "./credentials";
import type { Principal } from "./principal";
import type { Grant } from "./roles";
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
  const key = await findServiceKey(db, credential.id);
  if (!secretMatches(credential.secret, key?.secretHash) || !key || key.revokedAt) {
    throw unauthenticated("invalid service key");
  }
  return { kind: "service-key", id: `bcsk_${credential.id}`, grants: key.grants };
}

/**
 * A service key with its grants, in one round trip: this runs on every
 * service call (read fresh each time, so a revocation takes effect at once).
 */
async function findServiceKey(db: Db, id: string) {
  const [key] = await db.$queryRaw<ServiceKeyRow[]>(serviceKeySql(id));
  return key;
}

export interface ServiceKeyRow {
  secretHash: Uint8Array;
  revokedAt: Date | null;
  grants: Grant[];
}

/** The service key statement; exported so the benchmark's HTTP floor sends the very same SQL. */
export function serviceKeySql(id: string): Prisma.Sql {
  return Prisma.sql`
    SELECT k.secret_hash AS "secretHash", k.revoked_at AS "revokedAt",
      COALESCE(json_agg(json_build_object('tenantId', g.tenant_id, 'poolId', g.pool_id, 'role', g.role))
        FILTER (WHERE g.id IS NOT NULL), '[]'::json) AS grants
    FROM service_keys k LEFT JOIN role_grants g ON g.service_key_id = k.id
    WHERE k.id = ${id}
    GROUP BY k.id`;
}
