import "server-only";
import type { Tx } from "../db/client";
import type { ApprovalRule, JoinRequest } from "../db/generated/client";
import { recordJoinRequestEvent } from "../events/record-event";
import type { EventData } from "../events/write-event";
import { actionKind, type RuleAction } from "@/lib/approval-rules/rule-schemas";
import { rulePrincipal } from "./rule-rows";

/** A rule that matched without deciding, and what its event adds: the error, `throttled`, `blocked`, the count it raised to. */
export interface RuleMatch {
  rule: ApprovalRule;
  data?: EventData;
}

/** Another evaluation of the same request finished first: this one rolls back. */
export class AlreadyEvaluated extends Error {}

/**
 * The end of a request's evaluation, in the transaction of its decision (if
 * any): the request is marked evaluated — only if no other evaluation was,
 * which makes the evaluation happen once however many instances and sweeps
 * race — and each rule that matched records `security.join-request.rule-matched`
 * (ruleId, version, mode, what it would do, and why it did not).
 */
export async function finishEvaluation(tx: Tx, request: JoinRequest, matches: readonly RuleMatch[], now: Date): Promise<void> {
  const marked = await tx.$executeRaw`
    UPDATE join_requests SET rules_evaluated_at = ${now} WHERE id = ${request.id} AND rules_evaluated_at IS NULL`;
  if (marked === 0) throw new AlreadyEvaluated();
  for (const { rule, data } of matches) {
    await recordJoinRequestEvent(tx, {
      type: "security.join-request.rule-matched",
      request,
      actor: rulePrincipal(rule),
      now,
      data: {
        ruleId: rule.id,
        version: rule.version,
        mode: rule.mode,
        rulePoolId: rule.poolId,
        would: data?.error !== undefined ? "error" : actionKind(rule.action as RuleAction),
        ...data,
      },
    });
  }
}
