import type pg from "pg";
import { ApiError } from "@/server/api/errors";
import { serviceKeySql, type ServiceKeyRow } from "@/server/auth/authenticate";
import { authorize } from "@/server/auth/authorize";
import { parseBearer, secretMatches } from "@/server/auth/credentials";
import type { Principal } from "@/server/auth/principal";
import type { JoinRequest } from "@/server/db/generated/client";
import { listJoinRequestsSql, listPage } from "@/server/join-requests/list-join-requests";
import { toJoinRequestJson } from "@/server/join-requests/join-request-json";
import { approveJoinRequestMethod, listJoinRequestsMethod } from "@/server/methods/join-requests-methods";
import { poolFactsFromJson, poolOrNotFound, type PoolFacts, type PoolRef } from "@/server/places/find-pool";
import { TTL_DEFAULT_SECONDS, type StateFilter } from "@/lib/validations/join-requests";
import { floorApproveStatements } from "./floor-approve";

// The HTTP floor's two methods: the app's statements (its own SQL builders),
// its hash check, grant check and JSON, and nothing else: no framework, no
// input schema, no tracing or metrics. Unknown, revoked and wrong keys get the
// app's 401 so that a mistake in the bench shows as errors, not as speed.

type Input = Record<string, unknown>;
interface Call {
  db: pg.Pool;
  input: Input;
  principal: Principal;
  pool: PoolFacts;
  now: Date;
}

const METHODS: Record<string, { permission: typeof listJoinRequestsMethod.permission; run: (call: Call) => Promise<unknown> }> = {
  "/api/compute/joinRequests/list": { permission: listJoinRequestsMethod.permission, run: list },
  "/api/compute/joinRequests/approve": { permission: approveJoinRequestMethod.permission, run: approve },
};

export interface FloorAnswer {
  status: number;
  body: string;
}

export async function answerFloor(db: pg.Pool, path: string, authorization: string | undefined, text: string): Promise<FloorAnswer> {
  const now = new Date();
  try {
    const method = METHODS[path];
    if (!method) throw new ApiError("NOT_FOUND", `no method ${path}`);
    const input = JSON.parse(text) as Input;
    const ref = { tenantId: String(input.tenantId), poolId: String(input.poolId) };
    const { principal, pool: found } = await authenticateKey(db, authorization, ref);
    authorize(principal, method.permission, ref.tenantId, ref.poolId);
    const pool = poolOrNotFound(found, ref);
    return { status: 200, body: JSON.stringify(await method.run({ db, input, principal, pool, now })) };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.httpStatus, body: JSON.stringify(error.toBody()) };
    console.error(`http floor: ${error instanceof Error ? error.stack : String(error)}`);
    return { status: 500, body: JSON.stringify(new ApiError("INTERNAL", "internal error").toBody()) };
  }
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

async function list({ db, input, pool, now }: Call) {
  const limit = typeof input.limit === "number" ? input.limit : 100;
  const state = (input.state ?? "pending") as StateFilter;
  const cursor = typeof input.cursor === "string" ? input.cursor : undefined;
  const sql = listJoinRequestsSql({ pool, state, pageSize: limit + 1, cursor, now });
  const { rows } = await db.query<JoinRequest>(sql.text, sql.values as unknown[]);
  return listPage(rows, limit, now);
}

async function approve({ db, input, principal, pool, now }: Call) {
  const client = await db.connect();
  try {
    const row = await floorApproveStatements(client, {
      pool,
      requestId: String(input.requestId),
      ttlSeconds: typeof input.ttlSeconds === "number" ? input.ttlSeconds : TTL_DEFAULT_SECONDS,
      reason: typeof input.reason === "string" ? input.reason : undefined,
      actor: principal.id,
      now,
    });
    return toJoinRequestJson(row, now);
  } finally {
    client.release();
  }
}
