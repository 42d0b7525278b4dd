import "server-only";
import type { Tx } from "../db/client";
import type { ApprovalRule } from "../db/generated/client";
import { recordAdminChange } from "../admin/record-admin-change";
import { toRuleJson } from "./rule-rows";

/**
 * SPEC H2: `compute.approval-rule.changed` in the change's transaction, in the
 * rule's pool: who, which rule at which version, and the rule before and after
 * (null before a create, null after a delete).
 */
export async function recordRuleChange(
  tx: Tx,
  change: {
    actor: string;
    verb: "create" | "update" | "delete" | "reorder";
    pool: { tenantId: string; siteId: string; id: string };
    before: ApprovalRule | null;
    after: ApprovalRule | null;
    now: Date;
  },
): Promise<void> {
  const rule = (change.after ?? change.before)!;
  await recordAdminChange(tx, {
    type: "compute.approval-rule.changed",
    actor: change.actor,
    noun: "approval-rule",
    verb: change.verb,
    tenantId: change.pool.tenantId,
    siteId: change.pool.siteId,
    poolId: change.pool.id,
    id: rule.id,
    now: change.now,
    data: {
      ruleId: rule.id,
      version: rule.version,
      before: change.before ? toRuleJson(change.before) : null,
      after: change.after ? toRuleJson(change.after) : null,
    },
  });
}
