import "server-only";
import type { Db } from "../db/client";
import { createRule } from "../approval-rules/create-rule";
import { findRulePool } from "../approval-rules/find-rule-pool";
import { createRuleInput } from "@/lib/approval-rules/rule-schemas";

// SPEC H2's demo rules. Neither acts in Part C's pools: gpu-b's only records
// (shadow), and gpu-c's enforced rule names gpu-c itself, since an unclaimed
// fra1 request runs the rules of every fra1 pool and Part C promises those stay
// pending until a person decides.
export const DEMO_RULES = [
  {
    tenantId: "acme",
    poolId: "gpu-b",
    name: "approve hostnames gpu-b-*.fra1.acme.test from the fra1 enrollment key",
    expression:
      "request.credential.kind == 'enrollment-key' && request.credential.id == 'demofra1'\n" +
      "  && request.machine.hostname.matches('^gpu-b-[a-z0-9-]+\\\\.fra1\\\\.acme\\\\.test$')",
    action: { approve: { ttlSeconds: 3600 } },
    mode: "shadow",
    maxPerHour: 200,
  },
  {
    tenantId: "acme",
    poolId: "gpu-c",
    name: "placeholder serials with no TPM",
    expression: "request.poolId == 'gpu-c' && 'placeholder-hardware-id' in request.reasons && !request.tpmProven",
    action: { reject: { reason: "placeholder serial and no TPM: fix the inventory and join again" } },
    mode: "enforce",
  },
] as const;

/**
 * Creates the demo rules a pool does not have yet (by name), after the demo
 * requests, so those were deferred before any rule and wait for people as
 * Part C says. A rule someone changed or deleted since is left so.
 */
export async function seedDemoRules(db: Db, now: Date): Promise<void> {
  for (const spec of DEMO_RULES) {
    const pool = await findRulePool(db, spec.poolId, spec.tenantId);
    if (await db.approvalRule.findFirst({ where: { poolId: pool.id, name: spec.name } })) continue;
    await createRule({ db, pool, rule: createRuleInput.parse(spec), actor: "seed", now });
  }
}
