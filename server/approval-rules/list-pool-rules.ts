import "server-only";
import type { Db } from "../db/client";
import type { ListedRuleJson } from "@/lib/approval-rules/rule-schemas";
import { countRuleMatches } from "./count-rule-matches";
import { readPoolRules, toRuleJson } from "./rule-rows";

/** approvalRules/list's answer (and the Rules page's first render): the pool's rules in order, each with its last 24 hours. */
export async function listPoolRules(input: { db: Db; pool: { id: string; tenantId: string }; now: Date }): Promise<ListedRuleJson[]> {
  const { db, pool, now } = input;
  const rules = await readPoolRules(db, pool.id);
  const counts = await countRuleMatches({ db, tenantId: pool.tenantId, ruleIds: rules.map((rule) => rule.id), now });
  return rules.map((rule) => ({ ...toRuleJson(rule), matches24h: counts.get(rule.id)! }));
}
