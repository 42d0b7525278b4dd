import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { newId } from "@/lib/ids";
import { createWorld } from "@/test/api/world";
import { hourOf } from "../approval-rules/count-rule-approval";
import { RULE_HOUR_KEEP_MS } from "./delete-old-rule-hours";
import { runRetention } from "./run-retention";

// SPEC H2's maxPerHour counts one row per approve rule per UTC hour: retention
// deletes the hours two days old, in batches, and keeps the recent ones.
const HOUR = 3_600_000;
const settings = { retentionDays: 30, eventRetentionDays: 90, inventoryRetentionDays: 365 };

async function ruleWithHours(now: number, agesInHours: number[]) {
  const world = await createWorld();
  const db = await getDb();
  const ruleId = newId("rule");
  const at = new Date(now);
  await db.approvalRule.create({
    data: {
      id: ruleId,
      tenantId: world.tenantId,
      poolId: world.pools.a,
      position: 0,
      name: "rack",
      expression: "true",
      action: { approve: { ttlSeconds: 3600 } },
      mode: "enforce",
      maxPerHour: 10,
      updatedBy: "test",
      updatedAt: at,
      createdAt: at,
    },
  });
  const hours = agesInHours.map((age) => hourOf(new Date(now - age * HOUR)));
  await db.approvalRuleHour.createMany({ data: hours.map((hour) => ({ ruleId, hour, approvals: 3 })) });
  return { world, db, ruleId, hours };
}

describe("approval rule hours retention", () => {
  it("deletes hours older than two days, keeps the rest; a second pass deletes none", async () => {
    const now = Date.UTC(2026, 11, 6, 12, 30);
    const { world, db, ruleId, hours } = await ruleWithHours(now, [0, 1, 24, 47, 49, 72, 24 * 30]);
    expect(RULE_HOUR_KEEP_MS).toBe(48 * HOUR);
    const pass = await runRetention({ db, now: new Date(now), settings, tenantId: world.tenantId });
    expect(pass.deletedRuleHours).toBe(3);
    const left = await db.approvalRuleHour.findMany({ where: { ruleId }, orderBy: { hour: "desc" } });
    expect(left.map((row) => row.hour)).toEqual(hours.slice(0, 4));
    expect((await runRetention({ db, now: new Date(now), settings, tenantId: world.tenantId })).deletedRuleHours).toBe(0);
  });

  it("works in batches past one (1,200 old hours) and touches only its tenant's rules", async () => {
    const now = Date.UTC(2026, 11, 6, 12, 30);
    const ages = Array.from({ length: 1_200 }, (_, i) => 49 + i);
    const mine = await ruleWithHours(now, ages);
    const other = await ruleWithHours(now, [49, 50]);
    const pass = await runRetention({ db: mine.db, now: new Date(now), settings, tenantId: mine.world.tenantId });
    expect(pass.deletedRuleHours).toBe(1_200);
    expect(await mine.db.approvalRuleHour.count({ where: { ruleId: mine.ruleId } })).toBe(0);
    expect(await mine.db.approvalRuleHour.count({ where: { ruleId: other.ruleId } })).toBe(2);
  });
});
