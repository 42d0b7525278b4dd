import type pg from "pg";
import { listJoinRequestsSql } from "@/server/join-requests/list-join-requests";
import { newId } from "@/lib/ids";
import type { StateFilter } from "@/lib/validations/join-requests";
import { APPROVE_POOL, BENCH_KEY, HOT } from "./dataset";

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

/** What approve does in the database: read, then one conditional update with its event in a transaction. */
export async function floorApprove(client: pg.PoolClient, requestId: string): Promise<void> {
  const now = new Date();
  await client.query(`SELECT * FROM join_requests WHERE id = $1`, [requestId]);
  await client.query("BEGIN");
  try {
    const { rows } = await client.query(
      `UPDATE join_requests SET state = 'approved', pool_id = $2, expires_at = $3, decided_at = $4, decided_by = $5, reason = NULL
       WHERE id = $1 AND state = 'pending' AND pool_id = $2 AND expires_at > $4 RETURNING *`,
      [requestId, APPROVE_POOL, new Date(now.getTime() + 3600_000), now, `bcsk_${BENCH_KEY.id}`],
    );
    if (rows.length !== 1) throw new Error(`approve of ${requestId} updated ${rows.length} rows`);
    await client.query(
      `INSERT INTO events (id, type, occurred_at, tenant_id, site_id, pool_id, request_id, data) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        newId("evt"),
        "security.join-request.approved",
        now,
        HOT.tenantId,
        HOT.siteId,
        APPROVE_POOL,
        requestId,
        {
          requestId,
          siteId: HOT.siteId,
          poolId: APPROVE_POOL,
          actor: `bcsk_${BENCH_KEY.id}`,
          expiresAt: new Date(now.getTime() + 3600_000).toISOString(),
        },
      ],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}
