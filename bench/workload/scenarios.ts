import type pg from "pg";
import { listJoinRequestsSql } from "@/server/join-requests/list-join-requests";
import type { StateFilter } from "@/lib/validations/join-requests";
import { APPROVE_POOL, BENCH_KEY, HOT } from "./dataset";
import { floorApproveStatements } from "@/server/bench-floor/floor-approve";

// What each scenario sends: the HTTP body, and the floor's statements for it.

export function listBody(state: StateFilter, cursor?: string): string {
  return JSON.stringify({ tenantId: HOT.tenantId, poolId: HOT.poolId, state, limit: 100, ...(cursor ? { cursor } : {}) });
}

/** The app's own list statement, sent through pg. */
export async function floorList(client: pg.PoolClient, state: StateFilter, cursor?: string): Promise<void> {
  const sql = listJoinRequestsSql({ pool: HOT, state, pageSize: 101, cursor, now: new Date() });
  await client.query(sql.text, sql.values as unknown[]);
}

export function approveBody(requestId: string): string {
  return JSON.stringify({ tenantId: HOT.tenantId, poolId: APPROVE_POOL, requestId, ttlSeconds: 3600 });
}

/** The approve pool, as the app's pool lookup returns it. */
const APPROVE_POOL_FACTS = {
  id: APPROVE_POOL,
  tenantId: HOT.tenantId,
  siteId: HOT.siteId,
  requiresTpm: false,
  requireKnownBoot: false,
  archivedAt: null,
};

/** What approve does in the database (the statements the HTTP floor sends too). */
export async function floorApprove(client: pg.PoolClient, requestId: string): Promise<void> {
  const actor = `bcsk_${BENCH_KEY.id}`;
  await floorApproveStatements(client, { pool: APPROVE_POOL_FACTS, requestId, ttlSeconds: 3600, actor, now: new Date() });
}
