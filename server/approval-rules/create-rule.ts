import "server-only";
import type { Db } from "../db/client";
import type { ApprovalRule } from "../db/generated/client";
import type { PoolFacts } from "../places/find-pool";
import { ApiError } from "../api/errors";
import { newId } from "@/lib/ids";
import { MAX_RULES_PER_POOL, type CreateRuleInput } from "@/lib/approval-rules/rule-schemas";
import { checkedExpression } from "./checked-expression";
import { recordRuleChange } from "./record-rule-change";

/** SPEC H2: a new rule, last in its pool's order, at version 1, with its changed event. */
export async function createRule(input: {
  db: Db;
  pool: PoolFacts;
  rule: CreateRuleInput;
  actor: string;
  now: Date;
}): Promise<ApprovalRule> {
  const { db, pool, rule, actor, now } = input;
  checkedExpression(rule.expression, "expression");
  return db.$transaction(async (tx) => {
    // the pool's row locked: concurrent creates take positions one after the other
    await tx.$executeRaw`SELECT 1 FROM pools WHERE id = ${pool.id} FOR UPDATE`;
    const existing = await tx.approvalRule.aggregate({ where: { poolId: pool.id }, _count: true, _max: { position: true } });
    if (existing._count >= MAX_RULES_PER_POOL) {
      throw new ApiError("INVALID_STATE", `pool ${pool.id} holds ${MAX_RULES_PER_POOL} rules already, the most it may`);
    }
    const created = await tx.approvalRule.create({
      data: {
        id: newId("rule", now.getTime()),
        tenantId: pool.tenantId,
        poolId: pool.id,
        position: (existing._max.position ?? 0) + 1,
        name: rule.name,
        expression: rule.expression,
        action: rule.action,
        mode: rule.mode,
        maxPerHour: rule.maxPerHour ?? null,
        version: 1,
        updatedBy: actor,
        updatedAt: now,
        createdAt: now,
      },
    });
    await recordRuleChange(tx, { actor, verb: "create", pool, before: null, after: created, now });
    return created;
  });
}
