import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { callMethod, expectError, principalOf } from "@/test/api/api-client";
import { expectDeclaredResponse } from "@/test/api/declared-response";
import { addPool, createServiceKey, createWorld, makeRequest, storedRequest, type World } from "@/test/api/world";
import { createRule } from "@/test/api/rules";
import { evaluateRequestRules } from "@/server/approval-rules/evaluate-request-rules";

// SPEC H2: approvalRules/list|create|update|delete|reorder|test.
let world: World;
let tenantAdmin: string;
beforeAll(async () => {
  world = await createWorld();
  tenantAdmin = await createServiceKey(world.tenantId, [{ tenantId: world.tenantId, poolId: null, role: "tenant_admin" }]);
});

const call = async (method: string, body: Record<string, unknown>, bearer = world.keys.admin) => {
  const response = await callMethod(`approvalRules/${method}`, { tenantId: world.tenantId, ...body }, { bearer });
  if (response.status === 200) expectDeclaredResponse(`approvalRules/${method}`, response);
  return response;
};
const changes = async (poolId: string) =>
  (await getDb()).event.findMany({ where: { poolId, type: "compute.approval-rule.changed" }, orderBy: { id: "asc" } });

const reject = { expression: "request.machine.serialNumber.startsWith('SN-')", action: { reject: { reason: "test" } } };

describe("create, update, delete, reorder, list", () => {
  it("create answers the rule at version 1, last in order; update bumps the version; each change publishes before and after", async () => {
    const poolId = await addPool(world);
    const created = await call("create", { poolId, name: "first", ...reject });
    expect(created.status, created.text).toBe(200);
    expect(created.body.rule).toMatchObject({
      id: expect.stringMatching(/^rule_[0-9a-hjkmnp-tv-z]{26}$/),
      poolId,
      name: "first",
      mode: "shadow",
      version: 1,
      position: 1,
      maxPerHour: null,
      updatedBy: principalOf(world.keys.admin),
    });
    const ruleId = created.body.rule.id;
    const updated = await call("update", { poolId, ruleId, mode: "enforce", action: { approve: { ttlSeconds: 900 } }, maxPerHour: 20 });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.rule).toMatchObject({ version: 2, mode: "enforce", action: { approve: { ttlSeconds: 900 } }, maxPerHour: 20 });
    const same = await call("update", { poolId, ruleId, mode: "enforce" });
    expect(same.body.rule.version).toBe(2);

    const events = await changes(poolId);
    expect(events.map((event) => (event.data as { verb: string }).verb)).toEqual(["create", "update"]);
    expect(events[1]!.data).toMatchObject({
      actor: principalOf(world.keys.admin),
      ruleId,
      version: 2,
      before: { version: 1, mode: "shadow" },
      after: { version: 2, mode: "enforce" },
    });

    const deleted = await call("delete", { poolId, ruleId });
    expect(deleted.body).toEqual({ deleted: true });
    expect((await call("list", { poolId })).body.rules).toEqual([]);
    expect((await changes(poolId)).at(-1)!.data).toMatchObject({ verb: "delete", before: { id: ruleId }, after: null });
    expectError(await call("delete", { poolId, ruleId }), 404, "NOT_FOUND");
  });

  it("reorder takes the whole order and list answers in it; a partial order is refused naming ruleIds", async () => {
    const poolId = await addPool(world);
    const ids = [];
    for (const name of ["a", "b", "c"]) ids.push((await call("create", { poolId, name, ...reject })).body.rule.id);
    const reordered = await call("reorder", { poolId, ruleIds: [ids[2], ids[0], ids[1]] });
    expect(reordered.status, reordered.text).toBe(200);
    expect(reordered.body.rules.map((rule: { name: string }) => rule.name)).toEqual(["c", "a", "b"]);
    expect((await call("list", { poolId })).body.rules.map((rule: { name: string }) => rule.name)).toEqual(["c", "a", "b"]);
    const partial = await call("reorder", { poolId, ruleIds: [ids[0], ids[1]] });
    expectError(partial, 400, "INVALID_ARGUMENT");
    expect(partial.body.error.details[0].field).toBe("ruleIds");
  });

  it("a rule of another pool is NOT_FOUND", async () => {
    const [mine, theirs] = [await addPool(world), await addPool(world)];
    const ruleId = (await call("create", { poolId: theirs, name: "x", ...reject })).body.rule.id;
    expectError(await call("update", { poolId: mine, ruleId, name: "y" }), 404, "NOT_FOUND");
    expectError(await call("delete", { poolId: mine, ruleId }), 404, "NOT_FOUND");
    expectError(await call("test", { poolId: mine, ruleId }), 404, "NOT_FOUND");
  });
});

describe("validation names the field", () => {
  it.each([
    [{ expression: "request.nope", action: { reject: {} } }, "expression", /request has no field 'nope'.*line 1, column 8/],
    [{ expression: "request.machine.hostname", action: { reject: {} } }, "expression", /must evaluate to bool, not string/],
    [{ expression: "true", action: { approve: {} } }, "maxPerHour", /required for an approve rule/],
    [{ expression: "true", action: { requireApprovals: { count: 9 } } }, "action.requireApprovals.count", /2 to 5/],
    [{ expression: "true", action: { reject: {} }, mode: "on" }, "mode", /enforce, shadow/],
    [{ expression: "x".repeat(4097), action: { reject: {} } }, "expression", /4096 bytes/],
  ])("%j → 400 naming %s", async (body, field, message) => {
    const response = await call("create", { poolId: world.pools.a, name: "bad", ...body });
    expectError(response, 400, "INVALID_ARGUMENT");
    expect(response.body.error.details[0]).toMatchObject({ field, message: expect.stringMatching(message) });
  });

  it("update checks the cap against the rule as it becomes", async () => {
    const ruleId = await createRule(world, world.pools.b, { ...reject, mode: "shadow" });
    const response = await call("update", { poolId: world.pools.b, ruleId, action: { approve: {} } });
    expectError(response, 400, "INVALID_ARGUMENT");
    expect(response.body.error.details[0].field).toBe("maxPerHour");
  });
});

describe("permissions", () => {
  it("a viewer lists and tests but may not change (403); pool-admin and tenant-admin may; another tenant's pool is NOT_FOUND", async () => {
    const poolId = world.pools.a;
    expect((await call("list", { poolId }, world.keys.viewer)).status).toBe(200);
    expect((await call("test", { poolId, rule: reject }, world.keys.viewer)).status).toBe(200);
    expectError(await call("create", { poolId, name: "v", ...reject }, world.keys.viewer), 403, "PERMISSION_DENIED");
    expect((await call("create", { poolId, name: "pa", ...reject }, world.keys.poolAdminA)).status).toBe(200);
    expectError(await call("create", { poolId: world.pools.b, name: "pa", ...reject }, world.keys.poolAdminA), 403, "PERMISSION_DENIED");
    expect((await call("create", { poolId: world.pools.b, name: "ta", ...reject }, tenantAdmin)).status).toBe(200);
    expectError(await call("list", { poolId: world.other.poolId }), 404, "NOT_FOUND");
  });
});

describe("test: a dry run against the real queue", () => {
  it("answers per request what the rule would do and whether the person agreed, and agrees with what enforcement then does", async () => {
    const db = await getDb();
    const poolId = await addPool(world);
    const pending = [
      await makeRequest(world, { poolId }),
      await makeRequest(world, { poolId, reasons: ["hostname-in-use"] }),
      await makeRequest(world, { poolId, reasons: ["placeholder-hardware-id"] }),
    ];
    const approvedByPerson = await makeRequest(world, { poolId, outcome: "approved" });
    const rejectedByPerson = await makeRequest(world, { poolId, outcome: "rejected" });
    const draft = { expression: "!('placeholder-hardware-id' in request.reasons)", action: { approve: {} } };

    const response = await call("test", { poolId, rule: draft });
    expect(response.status, response.text).toBe(200);
    const byId = new Map(response.body.results.map((result: { requestId: string }) => [result.requestId, result]));
    expect(byId.get(pending[0])).toMatchObject({ state: "pending", would: "approve", agrees: null, decidedBy: null });
    expect(byId.get(pending[1])).toMatchObject({ would: "approve", blocked: expect.stringMatching(/hostname-in-use/) });
    expect(byId.get(pending[2])).toMatchObject({ would: "nothing", agrees: null });
    expect(byId.get(approvedByPerson)).toMatchObject({ state: "approved", would: "approve", agrees: true, decidedBy: "test" });
    expect(byId.get(rejectedByPerson)).toMatchObject({ state: "rejected", would: "approve", agrees: false });
    expect(response.body.summary).toMatchObject({ requests: 5, wouldApprove: 4, nothing: 1, errors: 0, agree: 1, disagree: 1 });

    // the same rule enforced, run on the same pending requests
    const ruleId = await createRule(world, poolId, { ...draft, maxPerHour: 100 });
    await db.joinRequest.updateMany({ where: { id: { in: pending } }, data: { rulesEvaluatedAt: null } });
    for (const requestId of pending) await evaluateRequestRules({ db, requestId, now: new Date() });
    expect((await storedRequest(pending[0]!)).decidedBy).toBe(`rule:${ruleId}@1`);
    expect((await storedRequest(pending[1]!)).state).toBe("pending");
    expect((await storedRequest(pending[2]!)).state).toBe("pending");

    const stored = await call("test", { poolId, ruleId });
    expect(stored.body.results.find((result: { requestId: string }) => result.requestId === pending[0])).toMatchObject({
      state: "approved",
    });
  });

  it("a draft with a bad expression is refused naming rule.expression; a failing one answers error per request", async () => {
    const bad = await call("test", { poolId: world.pools.a, rule: { expression: "nope", action: { reject: {} } } });
    expectError(bad, 400, "INVALID_ARGUMENT");
    expect(bad.body.error.details[0].field).toBe("rule.expression");
    const poolId = await addPool(world);
    await makeRequest(world, { poolId });
    const failing = await call("test", { poolId, rule: { expression: "discovery.assignedPoolId == 'x'", action: { reject: {} } } });
    expect(failing.body.results[0]).toMatchObject({ would: "error", error: expect.any(String) });
    expect(failing.body.summary.errors).toBe(1);
  });
});
