import "server-only";
import type { Db } from "../db/client";
import { Prisma, type JoinRequest } from "../db/generated/client";
import type { PoolFacts } from "../places/find-pool";
import type { WithApprovals } from "../join-requests/approvals-column";
import { JOIN_REQUEST_COLUMNS } from "../join-requests/join-request-columns";
import { effectiveStateSql } from "../join-requests/effective-state-sql";
import { actionKind, type RuleAction, type TestRuleAnswer, type Would } from "@/lib/approval-rules/rule-schemas";
import { effectiveState } from "@/lib/join-requests/state-machine";
import { compileRuleExpression, type Outcome } from "@/lib/approval-rules/compile-rule";
import type { RuleSubject } from "@/lib/approval-rules/rule-variables";
import { decideRuleApproval, type RulePool } from "./rule-approval-guard";
import { ruleSubjects } from "./rule-subject";

/** SPEC H2: at most this many requests are tested, the newest first. */
export const MAX_TESTED_REQUESTS = 10_000;
const DECIDED_WINDOW_MS = 30 * 24 * 3_600_000;

type Row = JoinRequest & WithApprovals;

/**
 * SPEC H2's dry run: a rule (a draft or a stored one) evaluated against the
 * pool's pending requests (its own and its site's unclaimed) and those it
 * decided in the last 30 days. For each: what the rule would do — its action,
 * `nothing`, `error`, or for an approval enforcement would refuse, the reason
 * as `blocked` (the same decision enforcement takes, rule-approval-guard.ts) —
 * and whether that agrees with what the person who decided did.
 */
export async function testRule(input: {
  db: Db;
  pool: RulePool;
  rule: { expression: string; action: RuleAction };
  now: Date;
}): Promise<TestRuleAnswer> {
  const { db, pool, rule, now } = input;
  const compiled = compileRuleExpression(rule.expression);
  const requests = await testedRequests(db, pool, now);
  const subjects = await ruleSubjects(db, requests, now);
  const kind = actionKind(rule.action);
  const results = requests.map((request, index) => {
    const outcome: Outcome = compiled.ok ? compiled.expression.evaluate(subjects[index] as RuleSubject) : { error: compiled.error.message };
    const would: Would = "error" in outcome ? "error" : outcome.matched ? kind : "nothing";
    const state = effectiveState(request, now);
    const blocked = would === "approve" && state === "pending" ? decideRuleApproval(request, pool, now) : undefined;
    return {
      requestId: request.id,
      state,
      would,
      ...("error" in outcome ? { error: outcome.error } : {}),
      ...(blocked?.kind === "refused" ? { blocked: blocked.message } : {}),
      decidedBy: request.decidedBy,
      agrees: agreement(would, request),
    };
  });
  const count = (test: (result: (typeof results)[number]) => boolean) => results.filter(test).length;
  return {
    results,
    summary: {
      requests: results.length,
      wouldApprove: count((result) => result.would === "approve"),
      wouldReject: count((result) => result.would === "reject"),
      wouldRequireApprovals: count((result) => result.would === "requireApprovals"),
      nothing: count((result) => result.would === "nothing"),
      errors: count((result) => result.would === "error"),
      agree: count((result) => result.agrees === true),
      disagree: count((result) => result.agrees === false),
    },
  };
}

/** What a person decided, if anyone did: a rejection, or an approval (used or expired since). */
function personDecision(request: Row): "approve" | "reject" | null {
  if (!request.decidedBy || request.decidedBy.startsWith("rule:")) return null;
  return request.state === "rejected" ? "reject" : "approve";
}

/** Whether the rule agrees with the person: null where no person decided, or the rule makes no claim to compare. */
function agreement(would: Would, request: Row): boolean | null {
  const decided = personDecision(request);
  if (decided === null || (would !== "approve" && would !== "reject")) return null;
  return would === decided;
}

function testedRequests(db: Db, pool: PoolFacts, now: Date): Promise<Row[]> {
  const since = new Date(now.getTime() - DECIDED_WINDOW_MS);
  return db.$queryRaw<Row[]>(Prisma.sql`
    SELECT ${JOIN_REQUEST_COLUMNS} FROM join_requests
    WHERE tenant_id = ${pool.tenantId}
      AND ((${effectiveStateSql("pending", now)} AND (pool_id = ${pool.id} OR (pool_id IS NULL AND site_id = ${pool.siteId})))
        OR (pool_id = ${pool.id} AND decided_at >= ${since}))
    ORDER BY id DESC
    LIMIT ${MAX_TESTED_REQUESTS}`);
}
