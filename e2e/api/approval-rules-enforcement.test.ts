import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { callMethod, errorCode } from "@/test/api/api-client";
import { createEnrollmentKeyRow, createJoinTokenRow, createJoinWorld, join, makeMachine, type JoinWorld } from "@/test/api/machine";
import { addPool, createWorld, eventsOf, makeRequest, storedRequest } from "@/test/api/world";
import { createRule, ruleMatches } from "@/test/api/rules";
import { evaluateRequestRules } from "@/server/approval-rules/evaluate-request-rules";
import { sweepUnevaluatedRequests } from "@/server/approval-rules/sweep-unevaluated-requests";
import { ruleApprovalGuardSql } from "@/server/approval-rules/rule-approval-guard";
import { transitionJoinRequest } from "@/server/join-requests/transition-join-request";
import { findPool } from "@/server/places/find-pool";

// SPEC H2: rules run when a request is deferred; the first enforce match
// decides as rule:<id>@<version> through the transition people use.
let world: JoinWorld;
beforeAll(async () => {
  world = await createJoinWorld();
});

const APPROVED = "security.join-request.approved";
const REJECTED = "security.join-request.rejected";

/** A fresh pool of the world's site, with a join token of its own. */
async function poolWithToken(): Promise<{ poolId: string; token: string }> {
  const poolId = await addPool(world);
  return { poolId, token: await createJoinTokenRow(world.tenantId, poolId) };
}

/** A machine no inventory knows joins through `token`: deferred (202), whatever the rules decide. */
async function deferredJoin(token: string, hostname?: string) {
  const machine = await makeMachine(hostname ? { hostname } : {});
  const response = await join(machine, token);
  expect(response.status, response.text).toBe(202);
  expect(response.body.status).toBe("pending");
  return { machine, requestId: response.body.requestId as string };
}

describe("each action, decided at the deferral", () => {
  it("approve: the request is approved as rule:<id>@1 with data.ruleId, the machine's retry is admitted", async () => {
    const { poolId, token } = await poolWithToken();
    const ruleId = await createRule(world, poolId, {
      expression: "request.machine.hostname.endsWith('.rack.test') && request.credential.kind == 'join-token'",
      action: { approve: { ttlSeconds: 600 } },
      maxPerHour: 10,
    });
    const { machine, requestId } = await deferredJoin(token, `n1-${Date.now()}.rack.test`);
    const stored = await storedRequest(requestId);
    expect(stored).toMatchObject({ state: "approved", poolId, decidedBy: `rule:${ruleId}@1` });
    expect(stored.rulesEvaluatedAt).not.toBeNull();
    const approved = (await eventsOf(requestId)).filter((event) => event.type === APPROVED);
    expect(approved).toHaveLength(1);
    expect(approved[0]!.data).toMatchObject({ actor: `rule:${ruleId}@1`, ruleId, ruleVersion: 1 });
    const retry = await join(machine, token);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body.status).toBe("admitted");
  });

  it("reject: rejected with the rule's reason; the retry is JOIN_REJECTED", async () => {
    const { poolId, token } = await poolWithToken();
    const ruleId = await createRule(world, poolId, { expression: "true", action: { reject: { reason: "no strangers" } } });
    const { machine, requestId } = await deferredJoin(token);
    expect(await storedRequest(requestId)).toMatchObject({ state: "rejected", decidedBy: `rule:${ruleId}@1`, reason: "no strangers" });
    const rejected = (await eventsOf(requestId)).filter((event) => event.type === REJECTED);
    expect(rejected.map((event) => event.data)).toEqual([
      expect.objectContaining({ ruleId, reason: "no strangers", previousState: "pending" }),
    ]);
    const retry = await join(machine, token);
    expect(retry.status).toBe(403);
    expect(errorCode(retry)).toBe("JOIN_REJECTED");
  });

  it("requireApprovals: raises the request's count (a person's approval is then recorded, not final)", async () => {
    const { poolId, token } = await poolWithToken();
    const ruleId = await createRule(world, poolId, { expression: "!request.tpmProven", action: { requireApprovals: { count: 2 } } });
    const { requestId } = await deferredJoin(token);
    expect(await storedRequest(requestId)).toMatchObject({ state: "pending", approvalsRequired: 2 });
    expect(await ruleMatches(requestId)).toEqual([
      expect.objectContaining({ ruleId, mode: "enforce", would: "requireApprovals", raisedTo: 2 }),
    ]);
    const approve = await callMethod("joinRequests/approve", { tenantId: world.tenantId, poolId, requestId }, { bearer: world.keys.admin });
    expect(approve.body).toMatchObject({ state: "pending", approvalsRequired: 2 });
  });
});

describe("order and first match", () => {
  it("the first enforce rule that matches decides and no later rule runs; one that does not match is passed over", async () => {
    const { poolId, token } = await poolWithToken();
    await createRule(world, poolId, { expression: "request.machine.hostname == 'nobody'", action: { reject: {} } });
    const first = await createRule(world, poolId, { expression: "true", action: { approve: {} }, maxPerHour: 100 });
    const second = await createRule(world, poolId, { expression: "true", action: { reject: {} } });
    const { requestId } = await deferredJoin(token);
    expect((await storedRequest(requestId)).decidedBy).toBe(`rule:${first}@1`);
    expect(await ruleMatches(requestId)).toEqual([]);

    const rules = (await callMethod("approvalRules/list", { tenantId: world.tenantId, poolId }, { bearer: world.keys.admin })).body.rules;
    const ids = (rules as { id: string }[]).map((rule) => rule.id);
    const reordered = [ids[0], second, first];
    const response = await callMethod(
      "approvalRules/reorder",
      { tenantId: world.tenantId, poolId, ruleIds: reordered },
      { bearer: world.keys.admin },
    );
    expect(response.status, response.text).toBe(200);
    const next = await deferredJoin(token);
    expect(await storedRequest(next.requestId)).toMatchObject({ state: "rejected", decidedBy: `rule:${second}@1` });
  });

  it("shadow changes nothing but records what it would do; an enforce rule after it still decides", async () => {
    const { poolId, token } = await poolWithToken();
    const shadow = await createRule(world, poolId, { expression: "true", action: { approve: {} }, maxPerHour: 5, mode: "shadow" });
    const { requestId } = await deferredJoin(token);
    expect(await storedRequest(requestId)).toMatchObject({ state: "pending", decidedBy: null });
    expect(await ruleMatches(requestId)).toEqual([
      expect.objectContaining({ ruleId: shadow, version: 1, mode: "shadow", would: "approve", actor: `rule:${shadow}@1` }),
    ]);
    const enforce = await createRule(world, poolId, { expression: "true", action: { reject: {} } });
    const next = await deferredJoin(token);
    expect(await storedRequest(next.requestId)).toMatchObject({ state: "rejected", decidedBy: `rule:${enforce}@1` });
    expect((await ruleMatches(next.requestId)).map((data) => data.ruleId)).toEqual([shadow]);
  });

  it("a failing expression counts as not matching and records the error", async () => {
    const { poolId, token } = await poolWithToken();
    const failing = await createRule(world, poolId, { expression: "discovery.assignedPoolId == 'x'", action: { reject: {} } });
    const { requestId } = await deferredJoin(token);
    expect(await storedRequest(requestId)).toMatchObject({ state: "pending" });
    expect(await ruleMatches(requestId)).toEqual([expect.objectContaining({ ruleId: failing, would: "error", error: expect.any(String) })]);
  });
});

describe("what no rule may approve (SPEC H2), recorded as blocked and left pending", () => {
  const approveAll = { expression: "true", action: { approve: {} }, maxPerHour: 100 };

  it.each(["machine-already-joined", "hostname-in-use"] as const)("a request deferred %s", async (reason) => {
    const poolId = await addPool(world);
    const ruleId = await createRule(world, poolId, approveAll);
    const requestId = await makeRequest(world, { poolId, reasons: [reason] });
    expect(await evaluateRequestRules({ db: await getDb(), requestId, now: new Date() })).toBe("blocked");
    expect(await storedRequest(requestId)).toMatchObject({ state: "pending" });
    expect(await ruleMatches(requestId)).toEqual([expect.objectContaining({ ruleId, blocked: expect.stringContaining(reason) })]);
  });

  it("a pool requiring 2 approvals", async () => {
    const poolId = await addPool(world);
    await (await getDb()).pool.update({ where: { id: poolId }, data: { approvalsRequired: 2 } });
    await createRule(world, poolId, approveAll);
    const requestId = await makeRequest(world, { poolId });
    expect(await evaluateRequestRules({ db: await getDb(), requestId, now: new Date() })).toBe("blocked");
    expect((await ruleMatches(requestId))[0]).toMatchObject({ blocked: expect.stringMatching(/more than one approval/) });
  });

  it("Part G: a TPM pool takes no request without a proven EK", async () => {
    await createRule(world, world.tpmPoolId, approveAll);
    const requestId = await makeRequest(world, { poolId: world.tpmPoolId });
    expect(await evaluateRequestRules({ db: await getDb(), requestId, now: new Date() })).toBe("blocked");
    expect((await ruleMatches(requestId))[0]).toMatchObject({ blocked: expect.stringMatching(/requires a proven TPM/) });
    await (await getDb()).approvalRule.deleteMany({ where: { poolId: world.tpmPoolId } });
  });

  it("the update itself refuses, even when the decision before it is bypassed", async () => {
    const db = await getDb();
    const poolId = await addPool(world);
    const pool = await findPool(db, world.tenantId, poolId);
    const requestId = await makeRequest(world, { poolId, reasons: ["hostname-in-use"] });
    const attempt = transitionJoinRequest({
      db,
      requestId,
      pool,
      actor: "rule:forced@1",
      now: new Date(),
      decide: () => ({ kind: "transition", from: "pending", to: "approved" }),
      changes: () => ({ state: "approved", decidedBy: "rule:forced@1", decidedAt: new Date() }),
      guard: ruleApprovalGuardSql(poolId),
      event: () => ({ type: APPROVED }),
    });
    await expect(attempt).rejects.toThrow(/kept changing/);
    expect(await storedRequest(requestId)).toMatchObject({ state: "pending" });
  });
});

describe("unclaimed site requests", () => {
  it("a rule of one of the site's pools claims and approves it; pools run in id order", async () => {
    const site = await createWorld();
    const db = await getDb();
    // only pools with rules matter: the second (by id) would reject, but the first approves
    const [first, second] = [`aa-${site.siteId}`, `zz-${site.siteId}`];
    for (const id of [first, second]) await db.pool.create({ data: { id, tenantId: site.tenantId, siteId: site.siteId, name: id } });
    const approve = await createRule(site, first, { expression: "request.poolId == null", action: { approve: {} }, maxPerHour: 5 });
    await createRule(site, second, { expression: "true", action: { reject: {} } });
    const key = await createEnrollmentKeyRow(site.tenantId, site.siteId);
    const { requestId } = await deferredJoin(key);
    expect(await storedRequest(requestId)).toMatchObject({ state: "approved", poolId: first, decidedBy: `rule:${approve}@1` });
  });
});

describe("a crash between deferral and evaluation", () => {
  it("leaves the request unevaluated; the sweep evaluates it, once", async () => {
    const poolId = await addPool(world);
    const ruleId = await createRule(world, poolId, { expression: "true", action: { reject: { reason: "swept" } } });
    // made by the domain functions without the join's evaluation: as if the app died right after the commit
    const requestId = await makeRequest(world, { poolId });
    expect(await storedRequest(requestId)).toMatchObject({ state: "pending", rulesEvaluatedAt: null });
    const db = await getDb();
    // no grace: the request is as old as one the sweep would reach (ids made now, not a minute ahead: shared-process-guard.ts)
    await sweepUnevaluatedRequests({ db, now: new Date(), graceMs: 0 });
    expect(await storedRequest(requestId)).toMatchObject({ state: "rejected", decidedBy: `rule:${ruleId}@1`, reason: "swept" });
    expect(await evaluateRequestRules({ db, requestId, now: new Date() })).toBe("skipped");
    expect((await eventsOf(requestId)).filter((event) => event.type === REJECTED)).toHaveLength(1);
  });

  it("requests in pools without rules are marked evaluated at the join: the sweep has nothing to do for them", async () => {
    const poolId = await addPool(world);
    const requestId = await makeRequest(world, { poolId });
    expect((await storedRequest(requestId)).rulesEvaluatedAt).not.toBeNull();
  });
});
