import "server-only";
import type { Db, Tx } from "../db/client";
import { Prisma, type JoinRequest } from "../db/generated/client";
import type { PoolFacts } from "../places/find-pool";
import { ApiError } from "../api/errors";
import { insertJoinRequestEventSql } from "../events/record-event";
import type { EventData } from "../events/write-event";
import { isVisibleToPool } from "@/lib/join-requests/state-machine";
import { decidePoolApproval, tpmRequirementProblem } from "@/lib/join-requests/tpm-requirement";
import { approvalsRequiredIn } from "@/lib/join-requests/approval-progress";
import { approvalsJson, type WithApprovals } from "./approvals-column";
import { lastApprovalWrites } from "./last-approval-writes";
import { JOIN_REQUEST_COLUMNS } from "./join-request-columns";
import { readJoinRequestSql, transitionSql } from "./transition-statement";

type Row = JoinRequest & WithApprovals;

/** What an approval is given, on either path (one statement, or the locked quorum). */
export interface ApproveInput {
  db: Db;
  pool: PoolFacts;
  requestId: string;
  ttlSeconds: number;
  reason?: string;
  actor: string;
  now: Date;
}

/**
 * SPEC H1: an approval of a request that needs more than one, or of an
 * unclaimed site request (whose count is the claiming pool's). One
 * transaction with the request row locked reads the approvals, adds the
 * caller's (one per principal: a repeat changes nothing) and, with the last
 * one needed, approves the request with the smallest ttlSeconds given; before
 * that it records `approval-recorded` and claims the request. Approvals,
 * rejections, consumption and retention of the same request take turns on the
 * lock (their single statements wait for it and re-check the state), so N
 * principals approving at once make exactly one `.approved`.
 */
export async function approveWithQuorum(input: ApproveInput): Promise<Row> {
  const { db, pool, requestId, actor, now } = input;
  return db.$transaction(async (tx) => {
    // Lock, then read in a statement of its own: READ COMMITTED gives each
    // statement a new snapshot, so the read sees the approvals of whoever held
    // the lock before. Read under FOR UPDATE in one statement, the approvals
    // subquery kept the snapshot from before the wait: the third of three
    // approvers at once counted two, recorded its approval and left the
    // request pending with all three (issue 33's parallel API tests found it).
    await tx.$executeRaw`SELECT 1 FROM join_requests WHERE id = ${requestId} FOR UPDATE`;
    const [request] = await tx.$queryRaw<Row[]>(readJoinRequestSql(requestId));
    if (!request || !isVisibleToPool(request, pool)) {
      throw new ApiError("NOT_FOUND", `join request ${requestId} not found in pool ${pool.id}`);
    }
    if (pool.archivedAt) throw new ApiError("INVALID_STATE", `pool ${pool.id} is archived; it cannot approve joins`);
    const decision = decidePoolApproval(request, pool, now);
    if (decision.kind === "unchanged") return request;
    if (decision.kind === "refused") throw new ApiError("INVALID_STATE", decision.message);

    const approvalsRequired = request.poolId === null ? await claimingCount(tx, request, pool) : request.approvalsRequired;
    const inserted = await tx.$executeRaw`
      INSERT INTO join_request_approvals (request_id, principal, approved_at, ttl_seconds)
      VALUES (${request.id}, ${actor}, ${now}, ${input.ttlSeconds})
      ON CONFLICT DO NOTHING`;
    // this principal approved already: it counts once, and the request is answered unchanged
    if (inserted === 0) return request;
    const approvals = [...approvalsJson(request), { by: actor, at: now.toISOString(), ttlSeconds: input.ttlSeconds }];

    if (approvals.length >= approvalsRequired) {
      const writes = lastApprovalWrites({ ...input, approvalsRequired, approvals });
      const [after] = await tx.$queryRaw<Row[]>(
        transitionSql({ read: request, from: decision.from, ...writes, intoPool: pool.id, actor, now }),
      );
      // the row is locked, so only the pool's TPM requirement, changed meanwhile, can stop the update
      if (!after) throw new ApiError("INVALID_STATE", tpmRequirementProblem({ id: pool.id, requiresTpm: true }, request)!);
      return after;
    }
    const [after] = await tx.$queryRaw<Row[]>(
      approvalRecordedSql({ request, pool, approvalsRequired, data: { approvalsRequired, approvals }, actor, now }),
    );
    return after!;
  });
}

/** An unclaimed site request takes the count of the pool that claims it, unless its own is higher. */
async function claimingCount(tx: Tx, request: Row, pool: PoolFacts): Promise<number> {
  const [row] = await tx.$queryRaw<{ approvalsRequired: number }[]>`
    SELECT approvals_required AS "approvalsRequired" FROM pools WHERE id = ${pool.id}`;
  return approvalsRequiredIn(request, row?.approvalsRequired ?? 1);
}

/**
 * An approval before the last: the request is claimed for the pool with its
 * count, and `approval-recorded` is written from the updated row (one
 * statement, as the transitions write their events).
 */
function approvalRecordedSql(input: {
  request: Row;
  pool: PoolFacts;
  approvalsRequired: number;
  data: EventData;
  actor: string;
  now: Date;
}): Prisma.Sql {
  const { request, pool, actor, now } = input;
  return Prisma.sql`
    WITH updated AS (
      UPDATE join_requests SET pool_id = ${pool.id}, approvals_required = ${input.approvalsRequired}
      WHERE id = ${request.id}
      RETURNING *
    ), recorded AS (
      ${insertJoinRequestEventSql({ type: "security.join-request.approval-recorded", actor, now, data: input.data }, Prisma.sql`updated`)}
    )
    SELECT ${JOIN_REQUEST_COLUMNS} FROM updated`;
}
