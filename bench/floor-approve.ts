import type pg from "pg";
import { ApiError } from "@/server/api/errors";
import type { JoinRequest } from "@/server/db/generated/client";
import { JOIN_REQUEST_COLUMNS } from "@/server/join-requests/list-join-requests";
import type { PoolFacts } from "@/server/pools/find-pool";
import { decideApproval, isVisibleToPool } from "@/lib/join-requests/state-machine";
import { newId } from "@/lib/ids";

const COLUMNS = JOIN_REQUEST_COLUMNS.text;

/**
 * What approve does in the database, for both floors (SPEC B1, as in
 * server/join-requests/approve-join-request.ts): read the request, decide
 * with the app's state machine, then one conditional update with its event in
 * a transaction. The app reads again when another transition won the race;
 * the floors' approvals are distinct, so a lost race here is an error.
 */
export async function floorApproveStatements(
  client: pg.ClientBase,
  input: { pool: PoolFacts; requestId: string; ttlSeconds: number; reason?: string; actor: string; now: Date },
): Promise<JoinRequest> {
  const { pool, requestId, actor, now } = input;
  const { rows } = await client.query<JoinRequest>(`SELECT ${COLUMNS} FROM join_requests WHERE id = $1`, [requestId]);
  const request = rows[0];
  if (!request || !isVisibleToPool(request, pool))
    throw new ApiError("NOT_FOUND", `join request ${requestId} not found in pool ${pool.id}`);
  if (pool.archivedAt) throw new ApiError("INVALID_STATE", `pool ${pool.id} is archived; it cannot approve joins`);
  const decision = decideApproval(request, pool.id, now);
  if (decision.kind === "unchanged") return request;
  if (decision.kind === "refused") throw new ApiError("INVALID_STATE", decision.message);
  const expiresAt = new Date(now.getTime() + input.ttlSeconds * 1000);
  await client.query("BEGIN");
  try {
    const updated = await client.query<JoinRequest>(
      `UPDATE join_requests SET state = 'approved', pool_id = $3, expires_at = $4, decided_at = $5, decided_by = $6, reason = $7
       WHERE id = $1 AND state = $2::join_request_state AND pool_id IS NOT DISTINCT FROM $8 AND expires_at > $5 RETURNING ${COLUMNS}`,
      [requestId, decision.from, pool.id, expiresAt, now, actor, input.reason ?? null, request.poolId],
    );
    const after = updated.rows[0];
    if (!after) throw new Error(`approve of ${requestId} lost a race the floor does not retry`);
    await client.query(
      `INSERT INTO events (id, type, occurred_at, tenant_id, site_id, pool_id, request_id, data) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        newId("evt", now.getTime()),
        "security.join-request.approved",
        now,
        after.tenantId,
        after.siteId,
        after.poolId,
        after.id,
        {
          requestId: after.id,
          siteId: after.siteId,
          poolId: after.poolId,
          actor,
          expiresAt: expiresAt.toISOString(),
          ...(input.reason ? { reason: input.reason } : {}),
        },
      ],
    );
    await client.query("COMMIT");
    return after;
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}
