import "server-only";
import type { PoolFacts } from "../places/find-pool";
import type { EventData } from "../events/write-event";
import type { ApprovalJson } from "@/lib/join-requests/approval-json";
import type { TransitionChanges } from "./transition-statement";

/** What the approval that completes a request writes: approved with the smallest ttlSeconds given, and its event listing every approval (SPEC H1). */
export function lastApprovalWrites(input: {
  pool: Pick<PoolFacts, "id">;
  approvalsRequired: number;
  approvals: ApprovalJson[];
  reason?: string;
  actor: string;
  now: Date;
}): {
  changes: TransitionChanges;
  event: { type: "security.join-request.approved"; data: EventData & { approvals: ApprovalJson[] } };
} {
  const { pool, now, approvals } = input;
  const ttlSeconds = Math.min(...approvals.map((approval) => approval.ttlSeconds));
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  return {
    changes: { state: "approved", poolId: pool.id, expiresAt, decidedAt: now, decidedBy: input.actor, reason: input.reason ?? null },
    event: {
      type: "security.join-request.approved",
      data: {
        expiresAt: expiresAt.toISOString(),
        ...(input.reason ? { reason: input.reason } : {}),
        approvalsRequired: input.approvalsRequired,
        approvals,
      },
    },
  };
}
