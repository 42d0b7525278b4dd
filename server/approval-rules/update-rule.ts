import "server-only";
import type { Db } from "../db/client";
import type { ApprovalRule, Prisma } from "../db/generated/client";
import type { PoolFacts } from "../places/find-pool";
import { ApiError } from "../api/errors";
import { capProblem, type RuleAction, type UpdateRuleInput } from "@/lib/approval-rules/rule-schemas";
import { checkedExpression } from "./checked-expression";
import { lockPoolRule } from "./find-pool-rule";
import { recordRuleChange } from "./record-rule-change";

type Changes = Pick<UpdateRuleInput, "name" | "expression" | "action" | "mode" | "maxPerHour">;

/**
 * SPEC H2: changes any of a rule's fields, version + 1, with its changed
 * event. The cap is checked against the rule as it becomes (an approve rule
 * keeps one; turning it into another action drops it). Nothing different:
 * the rule unchanged, no new version, no event.
 */
export async function updateRule(input: {
  db: Db;
  pool: PoolFacts;
  ruleId: string;
  changes: Changes;
  actor: string;
  now: Date;
}): Promise<ApprovalRule> {
  const { db, pool, changes, actor, now } = input;
  if (changes.expression !== undefined) checkedExpression(changes.expression, "expression");
  return db.$transaction(async (tx) => {
    const before = await lockPoolRule(tx, pool.id, input.ruleId);
    const action = changes.action ?? (before.action as RuleAction);
    const actionChanged = changes.action !== undefined && JSON.stringify(changes.action) !== JSON.stringify(before.action);
    const maxPerHour =
      changes.maxPerHour !== undefined ? changes.maxPerHour : actionChanged && !("approve" in action) ? null : before.maxPerHour;
    const problem = capProblem(action, maxPerHour);
    if (problem) throw new ApiError("INVALID_ARGUMENT", `maxPerHour: ${problem}`, [{ field: "maxPerHour", message: problem }]);
    const data: Prisma.ApprovalRuleUpdateInput = {};
    if (changes.name !== undefined && changes.name !== before.name) data.name = changes.name;
    if (changes.expression !== undefined && changes.expression !== before.expression) data.expression = changes.expression;
    if (actionChanged) data.action = action;
    if (changes.mode !== undefined && changes.mode !== before.mode) data.mode = changes.mode;
    if (maxPerHour !== before.maxPerHour) data.maxPerHour = maxPerHour;
    if (Object.keys(data).length === 0) return before;
    const after = await tx.approvalRule.update({
      where: { id: before.id },
      data: { ...data, version: before.version + 1, updatedBy: actor, updatedAt: now },
    });
    await recordRuleChange(tx, { actor, verb: "update", pool, before, after, now });
    return after;
  });
}
