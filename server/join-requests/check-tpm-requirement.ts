import "server-only";
import { ApiError } from "../api/errors";
import { tpmRequirementProblem, type TpmFacts, type TpmPool } from "@/lib/join-requests/tpm-requirement";

/** SPEC G2 as an answer: a pool that requires TPM and a request without a proven EK → INVALID_STATE naming the requirement. */
export function checkTpmRequirement(pool: TpmPool, request: TpmFacts): void {
  const problem = tpmRequirementProblem(pool, request);
  if (problem) throw new ApiError("INVALID_STATE", problem);
}
