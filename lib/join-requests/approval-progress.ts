import type { ApprovalJson } from "./approval-json";

// SPEC H1 in words the console shows: how far a request's approvals are, and
// what the signed-in principal's approval would do. Pure, so the queue, the
// request page and the dialogs say the same thing, and a unit test pins it.

export interface ApprovalProgress {
  given: number;
  required: number;
  /** the signed-in principal approved it already: approving again changes nothing */
  mine: boolean;
  /** approvals still needed now, before the signed-in principal acts */
  missing: number;
  /** approvals still needed after the signed-in principal's (when it is not theirs yet) */
  afterMine: number;
}

/**
 * The approvals a request needs when a pool requiring `poolApprovalsRequired`
 * decides it: its own count, or for an unclaimed site request (no pool yet)
 * the greater of its count and the claiming pool's, as the approval that
 * claims it records (SPEC H1).
 */
export function approvalsRequiredIn(request: { poolId?: string | null; approvalsRequired: number }, poolApprovalsRequired: number): number {
  return request.poolId === null ? Math.max(request.approvalsRequired, poolApprovalsRequired) : request.approvalsRequired;
}

export function approvalProgress(
  request: { approvals: readonly ApprovalJson[]; approvalsRequired: number; poolId?: string | null },
  me: string,
  poolApprovalsRequired = 1,
): ApprovalProgress {
  const given = request.approvals.length;
  const required = approvalsRequiredIn(request, poolApprovalsRequired);
  const mine = request.approvals.some((approval) => approval.by === me);
  const missing = Math.max(0, required - given);
  return { given, required, mine, missing, afterMine: mine ? missing : Math.max(0, missing - 1) };
}

/** "1 of 2 approvals" (only worth showing when more than one is required). */
export function approvalCountText({ given, required }: Pick<ApprovalProgress, "given" | "required">): string {
  return `${Math.min(given, required)} of ${required} approval${required === 1 ? "" : "s"}`;
}

/** What the approve dialog says the signed-in principal's approval does. */
export function approvalEffectText(progress: ApprovalProgress): string {
  if (progress.mine) return waitingForMineText(progress.missing);
  if (progress.afterMine === 0) return "Your approval completes it";
  return `${progress.afterMine} more needed after yours`;
}

/** The signed-in principal approved: what the request waits for now. */
export function waitingForMineText(missing: number): string {
  return missing === 0 ? "You approved this" : `You approved this · waiting for ${missing} more`;
}

/** The status after an approval that was recorded but did not complete the request. */
export function approvalRecordedText(request: { approvals: readonly ApprovalJson[]; approvalsRequired: number }): string {
  const missing = Math.max(0, request.approvalsRequired - request.approvals.length);
  return `Approval recorded · ${missing} more needed`;
}
