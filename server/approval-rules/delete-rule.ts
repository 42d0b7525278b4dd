import "server-only";
import type { Db } from "../db/client";
import type { PoolFacts } from "../places/find-pool";
import { lockPoolRule } from "./find-pool-rule";
import { recordRuleChange } from "./record-rule-change";

/** SPEC H2: deletes a rule with its changed event (after: null). Its hourly counts go with it. */
export async function deleteRule(input: { db: Db; pool: PoolFacts; ruleId: string; actor: string; now: Date }): Promise<void> {
  const { db, pool, actor, now } = input;
  await db.$transaction(async (tx) => {
    const before = await lockPoolRule(tx, pool.id, input.ruleId);
    await tx.approvalRule.delete({ where: { id: before.id } });
    await tx.approvalRuleHour.deleteMany({ where: { ruleId: before.id } });
    await recordRuleChange(tx, { actor, verb: "delete", pool, before, after: null, now });
  });
}
