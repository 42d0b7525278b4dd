import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { tpmRequirementProblem } from "@/lib/join-requests/tpm-requirement";
import type { QueuePool } from "./queue-pool";

/**
 * Why this pool cannot approve a pending request, in the words the server
 * would answer with (SPEC G2); null: it can. Shown as text beside Reject,
 * never only as a disabled button, so screen readers and phones say it too.
 */
export function approveUnavailable(pool: QueuePool, request: JoinRequestJson): string | null {
  return tpmRequirementProblem(pool, request.machine);
}
