import type { JoinRequestState } from "@/lib/validations/join-requests";

// SPEC H1 for a bulk approve: an approval either completes its request or is
// recorded while the request waits for more, besides the ones that fail.

/** One row's answer: the request's state after the call, or a failure. */
export type BulkApprovalOutcome = { ok: true; state: JoinRequestState } | { ok: false };

export interface BulkApprovalCounts {
  /** approved now (this approval completed it, or it was approved already) */
  completed: number;
  /** the approval was recorded; the request stays pending for more approvers */
  waiting: number;
  failed: number;
}

export function bulkApprovalCounts(outcomes: readonly BulkApprovalOutcome[]): BulkApprovalCounts {
  const counts: BulkApprovalCounts = { completed: 0, waiting: 0, failed: 0 };
  for (const outcome of outcomes) {
    if (!outcome.ok) counts.failed++;
    else if (outcome.state === "pending") counts.waiting++;
    else counts.completed++;
  }
  return counts;
}

const requests = (count: number) => `${count} ${count === 1 ? "request" : "requests"}`;

/** "Approved 2 of 4 requests · 1 waits for more approvals · 1 failed" (the parts that are not zero after the first). */
export function bulkApprovalText({ completed, waiting, failed }: BulkApprovalCounts): string {
  const parts = [`Approved ${completed} of ${requests(completed + waiting + failed)}`];
  if (waiting > 0) parts.push(`${waiting} ${waiting === 1 ? "waits" : "wait"} for more approvals`);
  if (failed > 0) parts.push(`${failed} failed`);
  return parts.join(" · ");
}
