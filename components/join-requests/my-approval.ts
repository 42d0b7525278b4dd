import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { approvalProgress, waitingForMineText } from "@/lib/join-requests/approval-progress";
import type { QueuePool } from "./queue-pool";

/**
 * SPEC H1: a pending request the signed-in principal approved already, in
 * words ("You approved this · waiting for 1 more"); null when it is not. Approving
 * again would answer the request unchanged, so Approve is not offered then.
 */
export function myApprovalWaiting(pool: Pick<QueuePool, "me" | "approvalsRequired">, request: JoinRequestJson): string | null {
  if (request.state !== "pending") return null;
  const progress = approvalProgress(request, pool.me, pool.approvalsRequired);
  return progress.mine ? waitingForMineText(progress.missing) : null;
}
