import "server-only";
import { readRows } from "../db/read-rows";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { ApiError } from "../api/errors";
import { parseBearer, secretMatches } from "./credentials";
import type { Principal } from "./principal";
import type { Grant } from "./roles";
import { parseCookieHeader, principalFromSession } from "./session-principal";
import { poolFactsFromJson, poolSql, type PoolFacts, type PoolFactsJson, type PoolRef } from "../places/find-pool";

const unauthenticated = (message: string) => new ApiError("UNAUTHENTICATED", message);

/**
 * Authenticates a caller of the published methods: a service key
 * (`Authorization: Bearer bcsk_<id>.<secret>`), or, with no Authorization
 * header, the console's next-auth session cookie (SPEC B4). Unknown, revoked
 * and wrong keys all get the same answer.
 */
export async function authenticate(db: Db, request: Request): Promise<Principal> {
  return (await authenticateCaller(db, request)).principal;
}

/**
 * Authenticates the caller of a pool method and, for a service key, reads the
 * named pool in the same round trip (`pool`: the pool, or null when there is
 * none under that tenant). A console session leaves `pool` undefined: the
 * caller looks it up. Reading the pool before authorizing reveals nothing:
 * the caller decides what to answer in the published order (SPEC B2).
 */
export function authenticateForPool(
  db: Db,
  request: Request,
  ref: PoolRef | undefined,
): Promise<{ principal: Principal; pool?: PoolFacts | null }> {
  return authenticateCaller(db, request, ref);
}

async function authenticateCaller(db: Db, request: Request, ref?: PoolRef): Promise<{ principal: Principal; pool?: PoolFacts | null }> {
  const authorization = request.headers.get("authorization");
  if (!authorization) {
    const session = await principalFromSession(db, parseCookieHeader(request.headers.get("cookie")));
    if (session) return { principal: session.principal };
    throw unauthenticated("missing credentials: send Authorization: Bearer bcsk_<id>.<secret>, or sign in to the console");
  }
  const credential = parseBearer(authorization);
  if (!credential || credential.prefix !== "bcsk") {
    throw unauthenticated("invalid credentials: expected Authorization: Bearer bcsk_<id>.<secret>");
  }
  // read fresh on every call, so that a revocation takes effect at once
  const [key] = await readRows<ServiceKeyRow>(db, serviceKeySql(credential.id, ref));
  if (!secretMatches(credential.secret, key?.secretHash) || !key || key.revokedAt) {
    throw unauthenticated("invalid service key");
  }
  const principal: Principal = { kind: "service-key", id: `bcsk_${credential.id}`, grants: key.grants };
  return ref ? { principal, pool: key.pool ? poolFactsFromJson(key.pool) : null } : { principal };
}

export interface ServiceKeyRow {
  secretHash: Uint8Array;
  revokedAt: Date | null;
  grants: Grant[];
  /** With a pool asked for: that pool's row as JSON, or null. */
  pool?: PoolFactsJson | null;
}

/**
 * The service key statement: the key with its grants and, when a pool method
 * names a pool, that pool (the pool statement itself, as a subquery), so a
 * pool method's credentials and pool cost one round trip.
 */
export function serviceKeySql(id: string, ref?: PoolRef): Prisma.Sql {
  const pool = ref ? Prisma.sql`, (SELECT row_to_json(p) FROM (${poolSql(ref.tenantId, ref.poolId)}) p) AS pool` : Prisma.empty;
  return Prisma.sql`
    SELECT k.secret_hash AS "secretHash", k.revoked_at AS "revokedAt",
      COALESCE(json_agg(json_build_object('tenantId', g.tenant_id, 'poolId', g.pool_id, 'role', g.role))
        FILTER (WHERE g.id IS NOT NULL), '[]'::json) AS grants${pool}
    FROM service_keys k LEFT JOIN role_grants g ON g.service_key_id = k.id
    WHERE k.id = ${id}
    GROUP BY k.id`;
}
