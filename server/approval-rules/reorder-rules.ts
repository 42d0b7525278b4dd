import "server-only";
import type { Db } from "../db/client";
import type { ApprovalRule } from "../db/generated/client";
import type { PoolFacts } from "../places/find-pool";
import { ApiError } from "../api/errors";
import { readPoolRules } from "./rule-rows";
import { recordRuleChange } from "./record-rule-change";

/**
 * SPEC H2: the pool's whole order, given as every rule id once. Each rule that
 * moves gets its new position and a changed event (before and after show the
 * positions); its version stays, as what it does has not changed.
 */
export async function reorderRules(input: {
  db: Db;
  pool: PoolFacts;
  ruleIds: string[];
  actor: string;
  now: Date;
}): Promise<ApprovalRule[]> {
  const { db, pool, ruleIds, actor, now } = input;
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM pools WHERE id = ${pool.id} FOR UPDATE`;
    const rules = await readPoolRules(tx, pool.id);
    const known = new Set(rules.map((rule) => rule.id));
    const given = new Set(ruleIds);
    if (given.size !== ruleIds.length || given.size !== known.size || ruleIds.some((id) => !known.has(id))) {
      const message = `must list each of the pool's ${known.size} rules exactly once`;
      throw new ApiError("INVALID_ARGUMENT", `ruleIds: ${message}`, [{ field: "ruleIds", message }]);
    }
    const byId = new Map(rules.map((rule) => [rule.id, rule]));
    const ordered: ApprovalRule[] = [];
    for (const [index, id] of ruleIds.entries()) {
      const before = byId.get(id)!;
      const position = index + 1;
      if (before.position === position) {
        ordered.push(before);
        continue;
      }
      const after = await tx.approvalRule.update({ where: { id }, data: { position } });
      await recordRuleChange(tx, { actor, verb: "reorder", pool, before, after, now });
      ordered.push(after);
    }
    return ordered;
  });
}
