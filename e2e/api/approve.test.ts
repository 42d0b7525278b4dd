import { beforeAll, describe, expect, it } from "vitest";
import { callMethod, expectError, principalOf } from "@/test/api/api-client";
import { createWorld, eventsOf, makeRequest, storedRequest, type RequestSpec, type World } from "@/test/api/world";

// SPEC Part A "approve", B2 "approve", B6 (the .approved event).
let world: World;
beforeAll(async () => {
  world = await createWorld();
});

const APPROVED = "security.join-request.approved";
const HOUR_MS = 3600_000;

const approve = (body: Record<string, unknown>, options: { poolId?: string; bearer?: string } = {}) =>
  callMethod(
    "joinRequests/approve",
    { tenantId: world.tenantId, poolId: options.poolId ?? world.pools.a, ...body },
    { bearer: options.bearer ?? world.keys.admin },
  );
const listIds = async (poolId: string) => {
  const response = await callMethod(
    "joinRequests/list",
    { tenantId: world.tenantId, poolId, state: "all", limit: 200 },
    { bearer: world.keys.admin },
  );
  return response.body.joinRequests.map((request: { id: string }) => request.id) as string[];
};
const approvedEvents = async (requestId: string) => (await eventsOf(requestId)).filter((event) => event.type === APPROVED);
/** The stored row and its events: what a refused call must leave as it was. */
const snapshot = async (requestId: string) => ({ row: await storedRequest(requestId), events: await eventsOf(requestId) });
const pending = (spec: Partial<RequestSpec> = {}) => makeRequest(world, { poolId: world.pools.a, ...spec });

describe("approve: pending → approved (Part A)", () => {
  it("returns the request approved, assigned to the pool, with expiresAt = decision time + ttlSeconds, as stored", async () => {
    const id = await pending();
    const before = Date.now();
    const response = await approve({ requestId: id, ttlSeconds: 600 });
    const after = Date.now();

    expect(response.status).toBe(200);
    const body = response.body;
    expect(body).toMatchObject({ id, state: "approved", poolId: world.pools.a, tenantId: world.tenantId, siteId: world.siteId });
    const decidedAt = Date.parse(body.decidedAt);
    expect(decidedAt).toBeGreaterThanOrEqual(before);
    expect(decidedAt).toBeLessThanOrEqual(after);
    expect(Date.parse(body.expiresAt) - decidedAt).toBe(600_000);

    const stored = await storedRequest(id);
    expect(stored.state).toBe("approved");
    expect(stored.poolId).toBe(world.pools.a);
    expect(stored.expiresAt.toISOString()).toBe(body.expiresAt);
    expect(stored.decidedAt?.toISOString()).toBe(body.decidedAt);
  });

  it.each([
    ["omitted", {}],
    ["null", { ttlSeconds: null }],
  ])("ttlSeconds %s means the default of one hour", async (_, ttl) => {
    const id = await pending();
    const response = await approve({ requestId: id, ...ttl });
    expect(response.status).toBe(200);
    expect(Date.parse(response.body.expiresAt) - Date.parse(response.body.decidedAt)).toBe(HOUR_MS);
    expect((await storedRequest(id)).expiresAt.toISOString()).toBe(response.body.expiresAt);
  });

  it.each([60, 86_400])("accepts ttlSeconds at the bound %i", async (ttlSeconds) => {
    const id = await pending();
    const response = await approve({ requestId: id, ttlSeconds });
    expect(response.status).toBe(200);
    expect(Date.parse(response.body.expiresAt) - Date.parse(response.body.decidedAt)).toBe(ttlSeconds * 1000);
  });

  it("records the reason, decidedBy (bcsk_<id>) and decidedAt", async () => {
    const id = await pending();
    const response = await approve({ requestId: id, reason: "racked, ticket OPS-7" });
    expect(response.body).toMatchObject({ reason: "racked, ticket OPS-7", decidedBy: principalOf(world.keys.admin) });
    const stored = await storedRequest(id);
    expect(stored.reason).toBe("racked, ticket OPS-7");
    expect(stored.decidedBy).toBe(principalOf(world.keys.admin));
    expect(stored.decidedAt).not.toBeNull();
  });

  it.each([
    ["omitted", {}],
    ["null", { reason: null }],
  ])("a reason %s is stored as null", async (_, reason) => {
    const id = await pending();
    const response = await approve({ requestId: id, ...reason });
    expect(response.body.reason).toBeNull();
    expect((await storedRequest(id)).reason).toBeNull();
  });

  it("publishes exactly one security.join-request.approved with data.expiresAt = the new expiry, actor bcsk_<id>", async () => {
    const id = await pending();
    const response = await approve({ requestId: id, ttlSeconds: 900 });
    const events = await approvedEvents(id);
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event!.tenantId).toBe(world.tenantId);
    expect(event!.data).toMatchObject({
      requestId: id,
      siteId: world.siteId,
      poolId: world.pools.a,
      actor: principalOf(world.keys.admin),
      expiresAt: response.body.expiresAt,
    });
  });
});

describe("approve claims an unclaimed site request (B2)", () => {
  it("sets poolId to the approving pool", async () => {
    const id = await makeRequest(world, { poolId: null });
    const response = await approve({ requestId: id });
    expect(response.status).toBe(200);
    expect(response.body.poolId).toBe(world.pools.a);
    expect((await storedRequest(id)).poolId).toBe(world.pools.a);
    expect((await approvedEvents(id))[0]!.data).toMatchObject({ poolId: world.pools.a });
  });

  it("the claimed request leaves the sibling pool's list, and the sibling gets NOT_FOUND approving or rejecting it", async () => {
    const id = await makeRequest(world, { poolId: null });
    expect(await listIds(world.pools.b)).toContain(id);
    await approve({ requestId: id });

    expect(await listIds(world.pools.b)).not.toContain(id);
    expect(await listIds(world.pools.a)).toContain(id);
    expectError(await approve({ requestId: id }, { poolId: world.pools.b }), 404, "NOT_FOUND");
    const reject = await callMethod(
      "joinRequests/reject",
      { tenantId: world.tenantId, poolId: world.pools.b, requestId: id },
      { bearer: world.keys.admin },
    );
    expectError(reject, 404, "NOT_FOUND");
    expect((await storedRequest(id)).state).toBe("approved");
  });
});

describe("approving again (B2)", () => {
  it("already approved for this pool: the stored approval byte-for-byte, no event, no new expiry", async () => {
    const id = await pending();
    const first = await approve({ requestId: id, ttlSeconds: 120, reason: "first" });
    const before = await snapshot(id);

    const again = await approve({ requestId: id, ttlSeconds: 86_400, reason: "second" });
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(await snapshot(id)).toEqual(before);
    expect(await approvedEvents(id)).toHaveLength(1);
  });

  it.each<[string, "site" | "own"]>([
    ["a site request pool b claimed", "site"],
    ["pool b's own request", "own"],
  ])("approved for another pool is NOT_FOUND: %s", async (_, owner) => {
    const id = await makeRequest(world, { poolId: owner === "own" ? world.pools.b : null });
    expect((await approve({ requestId: id }, { poolId: world.pools.b })).status).toBe(200);
    const before = await snapshot(id);
    expectError(await approve({ requestId: id }), 404, "NOT_FOUND");
    expect(await snapshot(id)).toEqual(before);
  });
});

describe("approve refuses other decided states with INVALID_STATE (Part A)", () => {
  it.each<[string, RequestSpec["outcome"], "own" | "site"]>([
    ["rejected", "rejected", "own"],
    ["pending past its expiry", "expired", "own"],
    ["an unclaimed site request past its expiry", "expired", "site"],
    ["approved past its expiry (for this pool)", "approved-expired", "own"],
    ["consumed", "consumed", "own"],
  ])("%s → 409 INVALID_STATE, nothing changes", async (_, outcome, owner) => {
    const id = await makeRequest(world, { poolId: owner === "own" ? world.pools.a : null, outcome });
    const before = await snapshot(id);
    expectError(await approve({ requestId: id }), 409, "INVALID_STATE");
    expect(await snapshot(id)).toEqual(before);
  });

  it("an archived pool is INVALID_STATE, and its site's request stays unclaimed and pending", async () => {
    const id = await makeRequest(world, { poolId: null });
    const before = await snapshot(id);
    expectError(await approve({ requestId: id }, { poolId: world.pools.archived }), 409, "INVALID_STATE");
    expect(await snapshot(id)).toEqual(before);
    expect(before.row).toMatchObject({ state: "pending", poolId: null });
  });

  it("an archived pool naming a request it cannot see is NOT_FOUND (visibility before state, B2)", async () => {
    const id = await pending();
    expectError(await approve({ requestId: id }, { poolId: world.pools.archived }), 404, "NOT_FOUND");
  });
});
