import "server-only";
import type { PoolFacts } from "../places/find-pool";
import { ApiError } from "../api/errors";
import { decidePoolApproval } from "@/lib/join-requests/tpm-requirement";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { toJoinRequestJson } from "./join-request-json";
import { transitionJoinRequest } from "./transition-join-request";
import type { TransitionChanges } from "./transition-statement";
import type { EventData } from "../events/write-event";
import type { ApprovalJson } from "@/lib/join-requests/approval-json";
import type { SoleApproval } from "./sole-approval-sql";
import { approveWithQuorum, type ApproveInput } from "./approve-with-quorum";
import { lastApprovalWrites } from "./last-approval-writes";

/**
 * Approves a pending request for `pool` with a new expiry of `ttlSeconds`
 * (claiming it if it was an unclaimed site request). An approval already
 * made for this pool is returned as stored: no new expiry, no event. A pool
 * that requires TPM takes only a request whose EK was proven (SPEC G2): the
 * decision refuses it, and the update itself re-checks the pool (intoPool).
 * A request one approval admits is decided in one statement, as before H1;
 * one that needs more approvals, or a site request (its count is the
 * claiming pool's), is decided by approveWithQuorum with the row locked.
 */
export async function approveJoinRequest(input: ApproveInput): Promise<JoinRequestJson> {
  const { pool, now } = input;
  const writes = approvalWrites(input);
  const { request, changed, diverted } = await transitionJoinRequest({
    ...input,
    precheck: () => {
      if (pool.archivedAt) throw new ApiError("INVALID_STATE", `pool ${pool.id} is archived; it cannot approve joins`);
    },
    decide: (current) => decidePoolApproval(current, pool, now),
    changes: () => writes.changes,
    intoPool: pool.id,
    divert: (current) => current.poolId === null || current.approvalsRequired > 1,
    approval: writes.approval,
    event: () => writes.event,
  });
  if (diverted) return toJoinRequestJson(await approveWithQuorum(input), now);
  // the statement's RETURNING cannot see the approval row it inserted itself
  return toJoinRequestJson(changed ? { ...request, approvals: writes.event.data.approvals } : request, now);
}

/** What an approval writes: the request's new state and expiry, and its event. */
export function approvalWrites(input: { pool: Pick<PoolFacts, "id">; ttlSeconds: number; reason?: string; actor: string; now: Date }): {
  changes: TransitionChanges;
  approval: SoleApproval;
  event: { type: "security.join-request.approved"; data: EventData & { approvals: ApprovalJson[] } };
} {
  const { now } = input;
  const approval = { by: input.actor, at: now.toISOString(), ttlSeconds: input.ttlSeconds };
  return { ...lastApprovalWrites({ ...input, approvalsRequired: 1, approvals: [approval] }), approval };
}
