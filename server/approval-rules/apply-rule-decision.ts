import "server-only";
import type { Db } from "../db/client";
import { Prisma, type ApprovalRule, type JoinRequest } from "../db/generated/client";
import { ApiError } from "../api/errors";
import { approvalWrites } from "../join-requests/approve-join-request";
import { rejectJoinRequest } from "../join-requests/reject-join-request";
import { transitionJoinRequest } from "../join-requests/transition-join-request";
import { JOIN_REQUEST_COLUMNS } from "../join-requests/join-request-columns";
import type { RuleAction } from "@/lib/approval-rules/rule-schemas";
import { countRuleApproval } from "./count-rule-approval";
import { AlreadyEvaluated, finishEvaluation, type RuleMatch } from "./finish-evaluation";
import { decideRuleApproval, ruleApprovalGuardSql, type RulePool } from "./rule-approval-guard";
import { rulePrincipal } from "./rule-rows";

/** An approve rule past its hour's cap: its approval rolls back. */
class Throttled extends Error {}

export type RuleDecisionOutcome = "decided" | "raised" | "throttled" | "blocked" | "skipped";

/**
 * The first enforce rule that matched decides (SPEC H2) through the path a
 * person's decision takes — the transition statement with its event, as
 * principal `rule:<id>@<version>`, the event carrying `ruleId` — with the
 * evaluation's end (mark, rule-matched events) and, for an approval, the
 * hour's count in the same transaction. What it may not do is refused by the
 * decision and by the update's own conditions (rule-approval-guard.ts) and
 * recorded as `blocked`; past its cap, as `throttled`; both leave it pending.
 */
export async function applyRuleDecision(input: {
  db: Db;
  request: JoinRequest;
  pool: RulePool;
  rule: ApprovalRule;
  matches: readonly RuleMatch[];
  now: Date;
}): Promise<RuleDecisionOutcome> {
  const { db, request, pool, rule, matches, now } = input;
  const action = rule.action as RuleAction;
  const actor = rulePrincipal(rule);
  const eventData = { ruleId: rule.id, ruleVersion: rule.version };
  const finish = async (extra: RuleMatch[]) => {
    try {
      await db.$transaction((tx) => finishEvaluation(tx, request, [...matches, ...extra], now));
    } catch (error) {
      if (!(error instanceof AlreadyEvaluated)) throw error;
    }
  };
  try {
    if ("approve" in action) {
      const writes = approvalWrites({ pool, ttlSeconds: action.approve.ttlSeconds, actor, now });
      const { changed } = await transitionJoinRequest({
        db,
        requestId: request.id,
        pool,
        actor,
        now,
        decide: (current) => decideRuleApproval(current, pool, now),
        changes: () => writes.changes,
        intoPool: pool.id,
        approval: writes.approval,
        guard: ruleApprovalGuardSql(pool.id),
        event: () => ({ ...writes.event, data: { ...writes.event.data, ...eventData } }),
        alsoInTransaction: async (tx, after) => {
          if (!(await countRuleApproval(tx, { id: rule.id, maxPerHour: rule.maxPerHour ?? 0 }, now))) throw new Throttled();
          await finishEvaluation(tx, after, matches, now);
        },
      });
      return changed ? "decided" : "skipped";
    }
    if ("reject" in action) {
      await rejectJoinRequest({
        db,
        pool,
        requestId: request.id,
        reason: action.reject.reason,
        actor,
        now,
        eventData,
        alsoInTransaction: (tx, after) => finishEvaluation(tx, after, matches, now),
      });
      return "decided";
    }
    const count = action.requireApprovals.count;
    const raised = await db.$transaction(async (tx) => {
      const [after] = await tx.$queryRaw<JoinRequest[]>(Prisma.sql`
        UPDATE join_requests SET approvals_required = GREATEST(approvals_required, ${count})
        WHERE id = ${request.id} AND state = 'pending' AND expires_at > ${now}
        RETURNING ${JOIN_REQUEST_COLUMNS}`);
      if (!after) return false;
      await finishEvaluation(tx, after, [...matches, { rule, data: { raisedTo: after.approvalsRequired } }], now);
      return true;
    });
    if (raised) return "raised";
    await finish([]);
    return "skipped";
  } catch (error) {
    if (error instanceof AlreadyEvaluated) return "skipped";
    if (error instanceof Throttled) {
      await finish([{ rule, data: { throttled: true } }]);
      return "throttled";
    }
    if (error instanceof ApiError && (error.code === "INVALID_STATE" || error.code === "NOT_FOUND")) {
      await finish([{ rule, data: { blocked: error.message } }]);
      return "blocked";
    }
    throw error;
  }
}
