import "server-only";
import type { Db, Tx } from "../db/client";
import type { ApprovalRule } from "../db/generated/client";
import type { RuleAction, RuleJson, RuleMode } from "@/lib/approval-rules/rule-schemas";

/** A stored rule as every method answers it (SPEC H2). */
export function toRuleJson(row: ApprovalRule): RuleJson {
  return {
    id: row.id,
    tenantId: row.tenantId,
    poolId: row.poolId,
    position: row.position,
    name: row.name,
    expression: row.expression,
    action: row.action as RuleAction,
    mode: row.mode as RuleMode,
    maxPerHour: row.maxPerHour,
    version: row.version,
    updatedBy: row.updatedBy,
    updatedAt: row.updatedAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

/** A pool's rules in their order. */
export function readPoolRules(db: Db | Tx, poolId: string): Promise<ApprovalRule[]> {
  return db.approvalRule.findMany({ where: { poolId }, orderBy: [{ position: "asc" }, { id: "asc" }] });
}

/** The principal a rule decides as: `rule:<id>@<version>` (SPEC H2). */
export const rulePrincipal = (rule: Pick<ApprovalRule, "id" | "version">) => `rule:${rule.id}@${rule.version}`;
