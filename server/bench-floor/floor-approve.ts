import type pg from "pg";
import { ApiError } from "@/server/api/errors";
import type { JoinRequest } from "@/server/db/generated/client";
import { approvalWrites } from "@/server/join-requests/approve-join-request";
import type { WithApprovals } from "@/server/join-requests/approvals-column";
import { readJoinRequestSql, transitionSql } from "@/server/join-requests/transition-statement";
import type { PoolFacts } from "@/server/places/find-pool";
import { isVisibleToPool } from "@/lib/join-requests/state-machine";
import { decidePoolApproval } from "@/lib/join-requests/tpm-requirement";

/**
 * What approve does in the database, for both floors (SPEC B1, as in
 * server/join-requests/transition-join-request.ts): read the request, decide
 * with the app's state machine, then the app's one statement that updates it
 * conditionally and records its event. The app reads again when another
 * transition won the race; the floors' approvals are distinct, so a lost race
 * here is an error.
 */
export async function floorApproveStatements(
  client: pg.ClientBase,
  input: { pool: PoolFacts; requestId: string; ttlSeconds: number; reason?: string; actor: string; now: Date },
): Promise<JoinRequest & WithApprovals> {
  const { pool, requestId, actor, now } = input;
  const read = readJoinRequestSql(requestId);
  const request = (await client.query<JoinRequest>(read.text, read.values as unknown[])).rows[0];
  if (!request || !isVisibleToPool(request, pool))
    throw new ApiError("NOT_FOUND", `join request ${requestId} not found in pool ${pool.id}`);
  if (pool.archivedAt) throw new ApiError("INVALID_STATE", `pool ${pool.id} is archived; it cannot approve joins`);
  const decision = decidePoolApproval(request, pool, now);
  if (decision.kind === "unchanged") return request;
  if (decision.kind === "refused") throw new ApiError("INVALID_STATE", decision.message);
  const writes = approvalWrites({ pool, ttlSeconds: input.ttlSeconds, reason: input.reason, actor, now });
  const fused = transitionSql({
    read: request,
    from: decision.from,
    ...writes,
    intoPool: pool.id,
    actor,
    now,
  });
  const after = (await client.query<JoinRequest>(fused.text, fused.values as unknown[])).rows[0];
  if (!after) throw new Error(`approve of ${requestId} lost a race the floor does not retry`);
  // as the app answers: the statement's RETURNING cannot see the approval row it inserted itself
  return { ...after, approvals: writes.event.data.approvals };
}
