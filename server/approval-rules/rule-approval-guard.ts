import "server-only";
import { Prisma } from "../db/generated/client";
import type { PoolFacts } from "../places/find-pool";
import type { Decision } from "@/lib/join-requests/state-machine";
import { decidePoolApproval } from "@/lib/join-requests/tpm-requirement";
import type { JoinRequestReason } from "@/lib/join-requests/join-request-json";

// SPEC H2: what no rule may approve, decided twice from one list: in the
// decision read before the update (a clear refusal, recorded as `blocked`),
// and in the update's own WHERE (rule-approval-guard's SQL), so a request or a
// pool that changes between the read and the write is still never approved.
//  - a request deferred because its machine or hostname belongs to an active
//    node (F2, F3): replacing a node is a person's decision;
//  - a request whose quoted boot matched no known state (I2): trusting a boot
//    is a person's decision ("Trust this boot state");
//  - a request needing more than one approval, or whose pool needs more (H1);
//  - an archived pool, and a TPM pool with an unproven EK (G2: intoPool).

export const PERSON_ONLY_REASONS: readonly JoinRequestReason[] = ["machine-already-joined", "hostname-in-use", "boot-state-unknown"];

export interface RulePool extends PoolFacts {
  approvalsRequired: number;
}

/** A rule's approval of `request` into `pool`, refused where a rule may not approve. */
export function decideRuleApproval(
  request: {
    state: string;
    expiresAt: Date;
    poolId: string | null;
    reasons: string[];
    approvalsRequired: number;
    tpmEkSha256: string | null;
    tpmEkProven: boolean;
  },
  pool: RulePool,
  now: Date,
): Decision {
  const decision = decidePoolApproval(request as Parameters<typeof decidePoolApproval>[0], pool, now);
  if (decision.kind !== "transition") return decision;
  const personOnly = request.reasons.filter((reason) => (PERSON_ONLY_REASONS as readonly string[]).includes(reason));
  if (personOnly.length > 0) return { kind: "refused", message: `no rule may approve a request deferred ${personOnly.join(", ")}` };
  if (request.approvalsRequired > 1 || pool.approvalsRequired > 1) {
    return { kind: "refused", message: `no rule may approve where more than one approval is required` };
  }
  if (pool.archivedAt) return { kind: "refused", message: `pool ${pool.id} is archived; it cannot approve joins` };
  return decision;
}

/** The same refusals as conditions of the update (join_requests columns; the pool read in the statement). */
export function ruleApprovalGuardSql(poolId: string): Prisma.Sql {
  return Prisma.sql`AND NOT (reasons && ${[...PERSON_ONLY_REASONS]}::text[]) AND approvals_required <= 1
        AND EXISTS (SELECT 1 FROM pools WHERE id = ${poolId} AND approvals_required <= 1 AND archived_at IS NULL)`;
}
