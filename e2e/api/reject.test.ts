import { beforeAll, describe, expect, it } from "vitest";
import { callMethod, expectError, principalOf } from "@/test/api/api-client";
import { addPool, archivePool, createWorld, eventsOf, makeRequest, storedRequest, type RequestSpec, type World } from "@/test/api/world";

// SPEC Part A "reject", B2 "reject", B6 (the .rejected event).
let world: World;
beforeAll(async () => {
  world = await createWorld();
});

const REJECTED = "security.join-request.rejected";

const call = (method: "approve" | "reject", body: Record<string, unknown>, poolId: string) =>
  callMethod(`joinRequests/${method}`, { tenantId: world.tenantId, poolId, ...body }, { bearer: world.keys.admin });
const reject = (body: Record<string, unknown>, poolId = world.pools.a) => call("reject", body, poolId);
const approve = (body: Record<string, unknown>, poolId = world.pools.a) => call("approve", body, poolId);
const rejectedEvents = async (requestId: string) => (await eventsOf(requestId)).filter((event) => event.type === REJECTED);
const snapshot = async (requestId: string) => ({ row: await storedRequest(requestId), events: await eventsOf(requestId) });
const listIds = async (poolId: string) => {
  const response = await callMethod(
    "joinRequests/list",
    { tenantId: world.tenantId, poolId, state: "all", limit: 200 },
    { bearer: world.keys.admin },
  );
  return response.body.joinRequests.map((request: { id: string }) => request.id) as string[];
};

/** Rejects and returns the response and the one .rejected event it published. */
async function rejectOnce(requestId: string, body: Record<string, unknown> = {}, poolId = world.pools.a) {
  const response = await reject({ requestId, ...body }, poolId);
  expect(response.status, response.text).toBe(200);
  const events = await rejectedEvents(requestId);
  expect(events).toHaveLength(1);
  return { response, event: events[0]! };
}

describe("reject a pending request (Part A)", () => {
  it("pending → rejected, with decidedBy, decidedAt and the reason, as stored", async () => {
    const id = await makeRequest(world, { poolId: world.pools.a });
    const { response } = await rejectOnce(id, { reason: "not ours" });
    expect(response.body).toMatchObject({
      id,
      state: "rejected",
      poolId: world.pools.a,
      reason: "not ours",
      decidedBy: principalOf(world.keys.admin),
    });
    const stored = await storedRequest(id);
    expect(stored).toMatchObject({ state: "rejected", reason: "not ours", decidedBy: principalOf(world.keys.admin) });
    expect(stored.decidedAt?.toISOString()).toBe(response.body.decidedAt);
  });

  it("publishes .rejected with previousState pending, actor bcsk_<id> and no data.reason when none is given", async () => {
    const id = await makeRequest(world, { poolId: world.pools.a });
    const { event } = await rejectOnce(id);
    expect(event.data).toEqual({
      requestId: id,
      siteId: world.siteId,
      poolId: world.pools.a,
      actor: principalOf(world.keys.admin),
      previousState: "pending",
    });
  });

  it.each([
    ["a reason", { reason: "bad EK" }, "bad EK"],
    ["a null reason", { reason: null }, undefined],
  ])("with %s, data.reason is present only when one was given", async (_, body, expected) => {
    const id = await makeRequest(world, { poolId: world.pools.a });
    const { event } = await rejectOnce(id, body);
    const data = event.data as Record<string, unknown>;
    if (expected === undefined) expect(data).not.toHaveProperty("reason");
    else expect(data.reason).toBe(expected);
    expect((await storedRequest(id)).reason).toBe(expected ?? null);
  });
});

describe("reject withdraws an unused approval (Part A)", () => {
  it("approved → rejected, .rejected with previousState approved and the reason", async () => {
    const id = await makeRequest(world, { poolId: world.pools.a });
    expect((await approve({ requestId: id })).status).toBe(200);
    const { response, event } = await rejectOnce(id, { reason: "changed our mind" });
    expect(response.body.state).toBe("rejected");
    expect(event.data).toMatchObject({ previousState: "approved", reason: "changed our mind", poolId: world.pools.a });
    expect((await storedRequest(id)).state).toBe("rejected");
  });
});

describe("reject claims an unclaimed site request (B2)", () => {
  it("poolId becomes the rejecting pool; it leaves the sibling's list and the sibling gets NOT_FOUND", async () => {
    const id = await makeRequest(world, { poolId: null });
    expect(await listIds(world.pools.b)).toContain(id);
    const { response, event } = await rejectOnce(id);
    expect(response.body.poolId).toBe(world.pools.a);
    expect(event.data).toMatchObject({ poolId: world.pools.a, previousState: "pending" });
    expect((await storedRequest(id)).poolId).toBe(world.pools.a);

    expect(await listIds(world.pools.b)).not.toContain(id);
    expectError(await reject({ requestId: id }, world.pools.b), 404, "NOT_FOUND");
    expectError(await approve({ requestId: id }, world.pools.b), 404, "NOT_FOUND");
  });
});

describe("reject works on an archived pool (B2)", () => {
  it("rejects (and claims) its site's unclaimed request", async () => {
    const id = await makeRequest(world, { poolId: null });
    const { response } = await rejectOnce(id, {}, world.pools.archived);
    expect(response.body).toMatchObject({ state: "rejected", poolId: world.pools.archived });
  });

  it("withdraws an approval made before the pool was archived", async () => {
    const poolId = await addPool(world);
    const id = await makeRequest(world, { poolId, outcome: "approved" });
    await archivePool(poolId);
    const { response, event } = await rejectOnce(id, {}, poolId);
    expect(response.body.state).toBe("rejected");
    expect(event.data).toMatchObject({ previousState: "approved" });
  });
});

describe("reject refusals and repeats", () => {
  it("already rejected: returned byte-for-byte unchanged, no event", async () => {
    const id = await makeRequest(world, { poolId: world.pools.a });
    const first = await reject({ requestId: id, reason: "first" });
    const before = await snapshot(id);
    const again = await reject({ requestId: id, reason: "second" });
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(await snapshot(id)).toEqual(before);
  });

  it.each<[string, RequestSpec["outcome"], "own" | "site"]>([
    ["pending past its expiry", "expired", "own"],
    ["an unclaimed site request past its expiry", "expired", "site"],
    ["approved past its expiry", "approved-expired", "own"],
    ["consumed", "consumed", "own"],
  ])("%s → 409 INVALID_STATE, nothing changes", async (_, outcome, owner) => {
    const id = await makeRequest(world, { poolId: owner === "own" ? world.pools.a : null, outcome });
    const before = await snapshot(id);
    expectError(await reject({ requestId: id }), 409, "INVALID_STATE");
    expect(await snapshot(id)).toEqual(before);
  });

  it.each<[string, RequestSpec["outcome"]]>([
    ["pending", "pending"],
    ["approved", "approved"],
    ["rejected", "rejected"],
  ])("another pool's %s request → 404 NOT_FOUND, nothing changes", async (_, outcome) => {
    const id = await makeRequest(world, { poolId: world.pools.b, outcome });
    const before = await snapshot(id);
    expectError(await reject({ requestId: id }), 404, "NOT_FOUND");
    expect(await snapshot(id)).toEqual(before);
  });
});
