import pLimit from "p-limit";
import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { createJoinTokenRow, createJoinWorld, join, makeMachine } from "@/test/api/machine";
import { addPool, makeRequests } from "@/test/api/world";
import { evaluateRequestRules } from "@/server/approval-rules/evaluate-request-rules";
import { createRule, ruleMatches } from "@/test/api/rules";
import { hourOf } from "@/server/approval-rules/count-rule-approval";

// SPEC H2: maxPerHour counted by a conditional write in the database, so any
// number of stateless instances and concurrent joins give exactly the cap.
const JOINS = 250;
const AT_ONCE = 32;
const CAP = 40;

/** The cap counts per UTC clock hour: a run that would straddle one waits for the next hour to start. */
async function notNearAnHourEnd(): Promise<void> {
  const left = hourOf(new Date()).getTime() + 3_600_000 - Date.now();
  if (left < 90_000) await new Promise((resolve) => setTimeout(resolve, left + 1_000));
}

describe("maxPerHour", () => {
  it(
    `${JOINS} deferred joins, ${AT_ONCE} at once: exactly ${CAP} approved, the rest pending and marked throttled, one event each`,
    { timeout: 600_000 },
    async () => {
      const world = await createJoinWorld();
      const poolId = await addPool(world);
      const token = await createJoinTokenRow(world.tenantId, poolId);
      const ruleId = await createRule(world, poolId, { expression: "true", action: { approve: {} }, maxPerHour: CAP });
      const machines = await Promise.all(Array.from({ length: JOINS }, () => makeMachine()));
      await notNearAnHourEnd();

      const limit = pLimit(AT_ONCE);
      const responses = await Promise.all(machines.map((machine) => limit(() => join(machine, token))));
      expect(responses.map((response) => response.status)).toEqual(Array(JOINS).fill(202));

      const db = await getDb();
      const requests = await db.joinRequest.findMany({ where: { poolId }, select: { id: true, state: true, decidedBy: true } });
      expect(requests).toHaveLength(JOINS);
      const approved = requests.filter((request) => request.state === "approved");
      expect(approved).toHaveLength(CAP);
      for (const request of approved) expect(request.decidedBy).toBe(`rule:${ruleId}@1`);
      const pending = requests.filter((request) => request.state === "pending");
      expect(pending).toHaveLength(JOINS - CAP);
      for (const request of pending) {
        expect(await ruleMatches(request.id)).toEqual([expect.objectContaining({ ruleId, would: "approve", throttled: true })]);
      }
      const approvedEvents = await db.event.count({ where: { poolId, type: "security.join-request.approved" } });
      expect(approvedEvents).toBe(CAP);
      expect(await db.approvalRuleHour.findMany({ where: { ruleId } })).toEqual([{ ruleId, hour: expect.any(Date), approvals: CAP }]);
    },
  );

  it(
    `evaluations ${AT_ONCE} at once on the database itself (as many instances would run them): exactly the cap`,
    { timeout: 300_000 },
    async () => {
      const world = await createJoinWorld();
      const poolId = await addPool(world);
      const ruleId = await createRule(world, poolId, { expression: "true", action: { approve: {} }, maxPerHour: 7 });
      const ids = await makeRequests(world, 100, { poolId });
      await notNearAnHourEnd();
      const db = await getDb();
      const limit = pLimit(AT_ONCE);
      const outcomes = await Promise.all(ids.map((requestId) => limit(() => evaluateRequestRules({ db, requestId, now: new Date() }))));
      expect(outcomes.filter((outcome) => outcome === "decided")).toHaveLength(7);
      expect(outcomes.filter((outcome) => outcome === "throttled")).toHaveLength(93);
      expect(await db.joinRequest.count({ where: { poolId, state: "approved", decidedBy: `rule:${ruleId}@1` } })).toBe(7);
    },
  );
});
