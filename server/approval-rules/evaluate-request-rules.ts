import "server-only";
import type { Db } from "../db/client";
import { Prisma, type JoinRequest } from "../db/generated/client";
import { readJoinRequestSql } from "../join-requests/transition-statement";
import type { WithApprovals } from "../join-requests/approvals-column";
import { effectiveState } from "@/lib/join-requests/state-machine";
import { applyRuleDecision, type RuleDecisionOutcome } from "./apply-rule-decision";
import { evaluateRule } from "./compiled-rules";
import { AlreadyEvaluated, finishEvaluation, type RuleMatch } from "./finish-evaluation";
import type { RulePool } from "./rule-approval-guard";
import { ruleSubjects } from "./rule-subject";

export type EvaluationOutcome = RuleDecisionOutcome | "recorded";

/**
 * SPEC H2: a deferred request's rules, run once. Its pool's rules in order (an
 * unclaimed site request: each pool of its site, pools in id order, then each
 * pool's rules in order). A shadow rule that matches, and a rule whose
 * evaluation fails (it counts as not matching), are recorded; the first
 * enforce rule that matches decides (apply-rule-decision.ts) and no later rule
 * runs. Everything the evaluation writes commits in one transaction with the
 * request marked evaluated, so a crash before it leaves the request unmarked
 * and the sweep (sweep-unevaluated-requests.ts) runs it again from scratch.
 */
export async function evaluateRequestRules(input: { db: Db; requestId: string; now: Date }): Promise<EvaluationOutcome> {
  const { db, requestId, now } = input;
  const [request] = await db.$queryRaw<(JoinRequest & WithApprovals)[]>(readJoinRequestSql(requestId));
  if (!request || request.rulesEvaluatedAt) return "skipped";
  const pools = await rulePools(db, request);
  const rules = await db.approvalRule.findMany({
    where: { poolId: { in: pools.map((pool) => pool.id) } },
    orderBy: [{ poolId: "asc" }, { position: "asc" }, { id: "asc" }],
  });
  const matches: RuleMatch[] = [];
  // Decided or expired before its rules ran: nothing to decide, only to mark.
  if (rules.length > 0 && effectiveState(request, now) === "pending") {
    const [subject] = await ruleSubjects(db, [request], now);
    for (const rule of rules) {
      const outcome = evaluateRule(rule, subject!);
      if ("error" in outcome) matches.push({ rule, data: { error: outcome.error } });
      else if (!outcome.matched) continue;
      else if (rule.mode === "shadow") matches.push({ rule });
      else return applyRuleDecision({ db, request, pool: pools.find((pool) => pool.id === rule.poolId)!, rule, matches, now });
    }
  }
  try {
    await db.$transaction((tx) => finishEvaluation(tx, request, matches, now));
    return "recorded";
  } catch (error) {
    if (error instanceof AlreadyEvaluated) return "skipped";
    throw error;
  }
}

/** The pools whose rules judge the request: its own, or (unclaimed) its site's in id order. */
function rulePools(db: Db, request: JoinRequest): Promise<RulePool[]> {
  const which = request.poolId === null ? Prisma.sql`site_id = ${request.siteId}` : Prisma.sql`id = ${request.poolId}`;
  return db.$queryRaw<RulePool[]>(Prisma.sql`
    SELECT id, tenant_id AS "tenantId", site_id AS "siteId", requires_tpm AS "requiresTpm",
      archived_at AS "archivedAt", approvals_required AS "approvalsRequired"
    FROM pools WHERE tenant_id = ${request.tenantId} AND ${which} ORDER BY id`);
}
