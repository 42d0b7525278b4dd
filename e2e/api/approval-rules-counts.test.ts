import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { callMethod } from "@/test/api/api-client";
import { expectDeclaredResponse } from "@/test/api/declared-response";
import { addPool, createWorld, makeRequest, storedRequest, type World } from "@/test/api/world";
import { createRule } from "@/test/api/rules";
import { evaluateRequestRules } from "@/server/approval-rules/evaluate-request-rules";

// SPEC H2's Rules page: approvalRules/list answers what each rule did in the
// last 24 hours (matches24h), counted from the events its evaluations wrote.
let world: World;
beforeAll(async () => {
  world = await createWorld();
});

const list = async (poolId: string, bearer = world.keys.admin) => {
  const response = await callMethod("approvalRules/list", { tenantId: world.tenantId, poolId }, { bearer });
  expect(response.status, response.text).toBe(200);
  expectDeclaredResponse("approvalRules/list", response);
  return new Map((response.body.rules as { id: string; matches24h: unknown }[]).map((rule) => [rule.id, rule.matches24h]));
};
const none = { enforced: 0, shadow: 0, throttled: 0, blocked: 0, errors: 0 };

/** A request of `poolId` made and evaluated at `now` (by default: now). */
async function evaluated(poolId: string, spec: { reasons?: ["hostname-in-use"]; at?: Date } = {}) {
  const requestId = await makeRequest(world, { poolId, ...spec });
  await evaluateRequestRules({ db: await getDb(), requestId, now: spec.at ?? new Date() });
  return requestId;
}

describe("approvalRules/list matches24h", () => {
  it("counts shadow matches, errors, enforced decisions, throttled and blocked approvals per rule", async () => {
    const poolId = await addPool(world);
    const shadow = await createRule(world, poolId, { expression: "true", action: { approve: {} }, maxPerHour: 100, mode: "shadow" });
    // evaluates on every request and fails there: "SN-…" is not an int
    const failing = await createRule(world, poolId, { expression: "int(request.machine.serialNumber) > 0", action: { reject: {} } });
    const approve = await createRule(world, poolId, { expression: "true", action: { approve: {} }, maxPerHour: 2 });
    const neverReached = await createRule(world, poolId, { expression: "true", action: { reject: {} } });
    expect(await list(poolId)).toEqual(new Map([shadow, failing, approve, neverReached].map((id) => [id, none])));

    const blocked = await evaluated(poolId, { reasons: ["hostname-in-use"] });
    const requests = [await evaluated(poolId), await evaluated(poolId), await evaluated(poolId)];
    expect((await storedRequest(blocked)).state).toBe("pending");
    expect((await Promise.all(requests.map(storedRequest))).map((request) => request.state)).toEqual(["approved", "approved", "pending"]);

    const counts = await list(poolId);
    expect(counts.get(shadow)).toEqual({ ...none, shadow: 4 });
    expect(counts.get(failing)).toEqual({ ...none, errors: 4 });
    expect(counts.get(approve)).toEqual({ ...none, enforced: 2, throttled: 1, blocked: 1 });
    expect(counts.get(neverReached)).toEqual(none);
  });

  it("counts a rejection as enforced, leaves out what happened more than 24 hours ago, and each pool sees its own rules", async () => {
    const poolId = await addPool(world);
    const reject = await createRule(world, poolId, { expression: "true", action: { reject: { reason: "no" } } });
    await evaluated(poolId, { at: new Date(Date.now() - 25 * 3_600_000) });
    const rejected = await evaluated(poolId);
    expect(await storedRequest(rejected)).toMatchObject({ state: "rejected", decidedBy: `rule:${reject}@1` });
    expect(await list(poolId)).toEqual(new Map([[reject, { ...none, enforced: 1 }]]));
    expect((await list(await addPool(world))).size).toBe(0);
  });

  it("a viewer reads the counts too (compute:join-tokens:read)", async () => {
    const poolId = world.pools.a;
    await createRule(world, poolId, { expression: "false", action: { reject: {} }, mode: "shadow" });
    expect([...(await list(poolId, world.keys.viewer)).values()].every((counts) => typeof counts === "object")).toBe(true);
  });
});
