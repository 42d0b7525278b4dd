import { beforeAll, describe, expect, inject, it } from "vitest";
import { getDb } from "@/server/db/client";
import { callMethod, expectError, principalOf } from "@/test/api/api-client";
import { signedInUser } from "@/test/api/signed-in-user";
import { addPool, createServiceKey, createWorld, eventsOf, makeRequest, storedRequest, type World } from "@/test/api/world";

// SPEC H1: approvals required — below the count an approval is recorded and
// the request stays pending; the last distinct principal needed approves it.
let world: World;
let tenantAdmin: string;
beforeAll(async () => {
  world = await createWorld();
  tenantAdmin = await createServiceKey(world.tenantId, [{ tenantId: world.tenantId, poolId: null, role: "tenant_admin" }]);
});

const RECORDED = "security.join-request.approval-recorded";
const APPROVED = "security.join-request.approved";
const REJECTED = "security.join-request.rejected";

/** A service key that may decide every pool of the world's tenant. */
const approver = () => createServiceKey(world.tenantId, [{ tenantId: world.tenantId, poolId: null, role: "pool_admin" }]);

/** A pool of the world's site requiring `count` approvals (set as a tenant-admin does). */
async function poolRequiring(count: number): Promise<string> {
  const poolId = await addPool(world);
  const response = await updatePool({ poolId, approvalsRequired: count });
  expect(response.status, response.text).toBe(200);
  return poolId;
}

const updatePool = (body: Record<string, unknown>, bearer = tenantAdmin) =>
  callMethod("pools/update", { tenantId: world.tenantId, ...body }, { bearer });

const approve = (poolId: string, requestId: string, bearer: string, body: Record<string, unknown> = {}) =>
  callMethod("joinRequests/approve", { tenantId: world.tenantId, poolId, requestId, ...body }, { bearer });

const reject = (poolId: string, requestId: string, bearer: string) =>
  callMethod("joinRequests/reject", { tenantId: world.tenantId, poolId, requestId }, { bearer });

const typesOf = async (requestId: string) => (await eventsOf(requestId)).map((event) => event.type);
const count = (types: string[], type: string) => types.filter((each) => each === type).length;

const listed = async (poolId: string, requestId: string) => {
  const response = await callMethod(
    "joinRequests/list",
    { tenantId: world.tenantId, poolId, state: "all", limit: 200 },
    { bearer: world.keys.admin },
  );
  return (response.body.joinRequests as { id: string }[]).find((request) => request.id === requestId);
};

describe("a pool requiring 2 approvals", () => {
  it("records the first approval and stays pending; the same principal again changes nothing; the second approves with the smallest ttlSeconds", async () => {
    const poolId = await poolRequiring(2);
    const id = await makeRequest(world, { poolId });
    const [first, second] = [await approver(), await approver()];

    const recorded = await approve(poolId, id, first, { ttlSeconds: 900 });
    expect(recorded.status, recorded.text).toBe(200);
    expect(recorded.body).toMatchObject({ id, state: "pending", approvalsRequired: 2, decidedAt: null, decidedBy: null });
    expect(recorded.body.approvals).toEqual([{ by: principalOf(first), at: expect.any(String), ttlSeconds: 900 }]);
    const events = await eventsOf(id);
    expect(events.map((event) => event.type)).toEqual(["security.join-request.created", RECORDED]);
    expect(events[1]!.data).toMatchObject({ actor: principalOf(first), approvalsRequired: 2, approvals: recorded.body.approvals });

    const again = await approve(poolId, id, first, { ttlSeconds: 60 });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(recorded.body);
    expect(await typesOf(id)).toEqual(["security.join-request.created", RECORDED]);
    expect(await (await getDb()).joinRequestApproval.count({ where: { requestId: id } })).toBe(1);

    const done = await approve(poolId, id, second, { ttlSeconds: 3600, reason: "second pair of eyes" });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ state: "approved", poolId, decidedBy: principalOf(second), reason: "second pair of eyes" });
    expect(Date.parse(done.body.expiresAt) - Date.parse(done.body.decidedAt)).toBe(900_000);
    expect(done.body.approvals.map((approval: { by: string }) => approval.by)).toEqual([principalOf(first), principalOf(second)]);
    const approved = (await eventsOf(id)).filter((event) => event.type === APPROVED);
    expect(approved).toHaveLength(1);
    expect(approved[0]!.data).toMatchObject({ expiresAt: done.body.expiresAt, approvalsRequired: 2, approvals: done.body.approvals });

    // list and a third approval see the same approvals; the third changes nothing
    expect(await listed(poolId, id)).toEqual(done.body);
    expect((await approve(poolId, id, await approver())).body).toEqual(done.body);
    expect(count(await typesOf(id), APPROVED)).toBe(1);
  });

  it("one reject ends it, and the approval given is kept", async () => {
    const poolId = await poolRequiring(2);
    const id = await makeRequest(world, { poolId });
    const first = await approver();
    await approve(poolId, id, first);
    const rejected = await reject(poolId, id, await approver());
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body).toMatchObject({ state: "rejected", approvalsRequired: 2 });
    expect(rejected.body.approvals).toEqual([expect.objectContaining({ by: principalOf(first) })]);
    expect(await typesOf(id)).toEqual(["security.join-request.created", RECORDED, REJECTED]);
    expectError(await approve(poolId, id, await approver()), 409, "INVALID_STATE");
  });

  it("expiry keeps the approvals", async () => {
    const poolId = await poolRequiring(2);
    const id = await makeRequest(world, { poolId });
    const first = await approver();
    await approve(poolId, id, first);
    await (await getDb()).joinRequest.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const request = await listed(poolId, id);
    expect(request).toMatchObject({ state: "expired", approvals: [expect.objectContaining({ by: principalOf(first) })] });
    expectError(await approve(poolId, id, await approver()), 409, "INVALID_STATE");
  });

  it("a service key and a user count as two principals", async () => {
    const poolId = await poolRequiring(2);
    const id = await makeRequest(world, { poolId });
    const key = await approver();
    const user = await signedInUser([{ tenantId: world.tenantId, poolId: null, role: "pool_admin" }]);
    expect((await approve(poolId, id, key)).body.state).toBe("pending");
    const done = await callMethod(
      "joinRequests/approve",
      { tenantId: world.tenantId, poolId, requestId: id },
      { headers: { cookie: user.cookie, origin: inject("baseUrl") } },
    );
    expect(done.status, done.text).toBe(200);
    expect(done.body.state).toBe("approved");
    expect(done.body.approvals.map((approval: { by: string }) => approval.by)).toEqual([principalOf(key), user.id]);
  });

  it("an unclaimed site request takes the count of the pool whose approval claims it", async () => {
    const poolId = await poolRequiring(2);
    const id = await makeRequest(world, { poolId: null });
    expect((await storedRequest(id)).approvalsRequired).toBe(1);
    const recorded = await approve(poolId, id, await approver());
    expect(recorded.body).toMatchObject({ state: "pending", poolId, approvalsRequired: 2 });
    expect(await listed(world.pools.b, id)).toBeUndefined();
  });

  it("requests already waiting keep the count they were deferred with", async () => {
    const poolId = await poolRequiring(2);
    const id = await makeRequest(world, { poolId });
    await updatePool({ poolId, approvalsRequired: 1 });
    expect((await approve(poolId, id, await approver())).body).toMatchObject({ state: "pending", approvalsRequired: 2 });
  });
});

describe("a pool requiring 1 approval (the default) behaves as before, and says who approved", () => {
  it("approves at once, listing the one approval", async () => {
    const id = await makeRequest(world, { poolId: world.pools.a });
    const response = await approve(world.pools.a, id, world.keys.admin, { ttlSeconds: 600 });
    expect(response.body).toMatchObject({ state: "approved", approvalsRequired: 1 });
    expect(response.body.approvals).toEqual([{ by: principalOf(world.keys.admin), at: response.body.decidedAt, ttlSeconds: 600 }]);
    expect(await listed(world.pools.a, id)).toEqual(response.body);
    expect(await typesOf(id)).toEqual(["security.join-request.created", APPROVED]);
    const [event] = (await eventsOf(id)).filter((each) => each.type === APPROVED);
    expect(event!.data).toMatchObject({ approvalsRequired: 1, approvals: response.body.approvals });
  });
});

describe("races on PostgreSQL", () => {
  it("5 distinct principals approving one request of a count-3 pool at once: one .approved, two approval-recorded", async () => {
    const poolId = await poolRequiring(3);
    const id = await makeRequest(world, { poolId });
    const keys = await Promise.all([1, 2, 3, 4, 5].map(() => approver()));
    const answers = await Promise.all(keys.map((key) => approve(poolId, id, key)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    const types = await typesOf(id);
    expect(count(types, APPROVED)).toBe(1);
    expect(count(types, RECORDED)).toBe(2);
    const stored = await storedRequest(id);
    expect(stored.state).toBe("approved");
    expect(await (await getDb()).joinRequestApproval.count({ where: { requestId: id } })).toBe(3);
  });

  it("approve (the last needed) against reject at once: one order, never both half-done", async () => {
    const poolId = await poolRequiring(2);
    for (let round = 0; round < 4; round++) {
      const id = await makeRequest(world, { poolId });
      await approve(poolId, id, await approver());
      const [approving, rejecting] = await Promise.all([approve(poolId, id, await approver()), reject(poolId, id, await approver())]);
      expect(rejecting.status, rejecting.text).toBe(200);
      const decisions = (await typesOf(id)).slice(2);
      // reject first: the approval is refused; approve first: the reject withdraws the approval (SPEC B2)
      if (approving.status === 409) expect(decisions).toEqual([REJECTED]);
      else expect({ state: approving.body.state, decisions }).toEqual({ state: "approved", decisions: [APPROVED, REJECTED] });
      expect((await storedRequest(id)).state).toBe("rejected");
    }
  });
});

describe("pools/update (compute:pools:manage: tenant-admin only)", () => {
  it("sets approvalsRequired and answers the pool; again is unchanged, with no second event", async () => {
    const poolId = await addPool(world);
    const first = await updatePool({ poolId, approvalsRequired: 3 });
    expect(first.status, first.text).toBe(200);
    expect(first.body.pool).toMatchObject({ id: poolId, tenantId: world.tenantId, siteId: world.siteId, approvalsRequired: 3 });
    const again = await updatePool({ poolId, approvalsRequired: 3 });
    expect(again.body).toEqual(first.body);
    const changes = await (await getDb()).event.findMany({ where: { type: "compute.admin.changed", poolId } });
    expect(changes.map((event) => event.data)).toEqual([
      expect.objectContaining({ noun: "pool", verb: "update", id: poolId, approvalsRequired: "3", previousApprovalsRequired: "1" }),
    ]);
  });

  it("refuses a pool-admin and a viewer (403), and a pool of another tenant is NOT_FOUND", async () => {
    const poolId = await addPool(world);
    expectError(await updatePool({ poolId, approvalsRequired: 2 }, world.keys.admin), 403, "PERMISSION_DENIED");
    expectError(await updatePool({ poolId, approvalsRequired: 2 }, world.keys.poolAdminA), 403, "PERMISSION_DENIED");
    expectError(await updatePool({ poolId, approvalsRequired: 2 }, world.keys.viewer), 403, "PERMISSION_DENIED");
    expectError(await updatePool({ poolId: world.other.poolId, approvalsRequired: 2 }), 404, "NOT_FOUND");
    expect((await (await getDb()).pool.findUniqueOrThrow({ where: { id: poolId } })).approvalsRequired).toBe(1);
  });

  it.each([0, 6, 2.5, "2"])("approvalsRequired %j is INVALID_ARGUMENT naming the field", async (value) => {
    const response = await updatePool({ poolId: world.pools.a, approvalsRequired: value });
    expectError(response, 400, "INVALID_ARGUMENT");
    expect(response.body.error.details).toEqual([expect.objectContaining({ field: "approvalsRequired" })]);
  });
});
