import { decideApproval, type Decision } from "./state-machine";

// SPEC G2: a pool that requires TPM takes only a request whose endorsement
// key was proven by credential activation (F1) at the join. One rule, read by
// approve, by the machine's retry that consumes an approval, and by the
// console (which says why Approve is unavailable, in the same words).

export interface TpmPool {
  id: string;
  requiresTpm: boolean;
}

export interface TpmFacts {
  tpmEkSha256: string | null;
  tpmEkProven: boolean;
}

/** Why `pool` cannot take a request of this machine; null: it can. */
export function tpmRequirementProblem(pool: TpmPool, machine: TpmFacts): string | null {
  if (!pool.requiresTpm || machine.tpmEkProven) return null;
  const why = machine.tpmEkSha256
    ? "this request's endorsement key was not proven by credential activation"
    : "this request presented no TPM";
  return `pool ${pool.id} requires a proven TPM: ${why}`;
}

/** A transition into `pool` becomes a refusal when the request does not meet its TPM requirement. */
export function requireProvenTpm(decision: Decision, pool: TpmPool, machine: TpmFacts): Decision {
  if (decision.kind !== "transition") return decision;
  const problem = tpmRequirementProblem(pool, machine);
  return problem ? { kind: "refused", message: problem } : decision;
}

/**
 * Whether `pool` may approve `request` now: the state machine's answer
 * (SPEC B2), refused when the pool requires a TPM the request did not prove.
 * Every approval asks this: a person's, the quorum's, a rule's, the bench floor's.
 */
export function decidePoolApproval(request: Parameters<typeof decideApproval>[0] & TpmFacts, pool: TpmPool, now: Date): Decision {
  return requireProvenTpm(decideApproval(request, pool.id, now), pool, request);
}
