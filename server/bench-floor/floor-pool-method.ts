import type pg from "pg";
import { ApiError } from "@/server/api/errors";
import { serviceKeySql, type ServiceKeyRow } from "@/server/auth/authenticate";
import { authorize } from "@/server/auth/authorize";
import { parseBearer, secretMatches } from "@/server/auth/credentials";
import type { Principal } from "@/server/auth/principal";
import type { Permission } from "@/server/auth/roles";
import { poolFactsFromJson, poolOrNotFound, type PoolFacts, type PoolRef } from "@/server/places/find-pool";
import type { FloorCall } from "./floor-call";

/** What a floor pool method is given once its caller and pool are known. */
export interface PoolCall {
  db: pg.Pool;
  input: Record<string, unknown>;
  principal: Principal;
  pool: PoolFacts;
  now: Date;
}

/**
 * A pool method on a floor, as the app serves one (serve-method.ts
 * servePoolMethod) minus its input schema: the body, the service key with its
 * pool in one statement, the grant check, the pool; then `run`.
 */
export function poolFloorMethod(permission: Permission, run: (call: PoolCall) => Promise<unknown>) {
  return async ({ db, authorization, text, now }: FloorCall): Promise<unknown> => {
    const input = JSON.parse(text) as Record<string, unknown>;
    const ref = { tenantId: String(input.tenantId), poolId: String(input.poolId) };
    const { principal, pool: found } = await authenticateKey(db, authorization, ref);
    authorize(principal, permission, ref.tenantId, ref.poolId);
    return run({ db, input, principal, pool: poolOrNotFound(found, ref), now });
  };
}

/** The app's service-key check (server/auth/authenticate.ts): its statement, with the pool, and its constant-time hash comparison. */
async function authenticateKey(
  db: pg.Pool,
  authorization: string | undefined,
  ref: PoolRef,
): Promise<{ principal: Principal; pool: PoolFacts | null }> {
  const credential = parseBearer(authorization ?? null);
  if (!credential || credential.prefix !== "bcsk") throw new ApiError("UNAUTHENTICATED", "invalid credentials");
  const sql = serviceKeySql(credential.id, ref);
  const [key] = (await db.query<ServiceKeyRow>(sql.text, sql.values as unknown[])).rows;
  if (!secretMatches(credential.secret, key?.secretHash) || !key || key.revokedAt)
    throw new ApiError("UNAUTHENTICATED", "invalid service key");
  const principal: Principal = { kind: "service-key", id: `bcsk_${credential.id}`, grants: key.grants };
  return { principal, pool: key.pool ? poolFactsFromJson(key.pool) : null };
}
