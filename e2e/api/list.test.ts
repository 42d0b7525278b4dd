import { beforeAll, describe, expect, it } from "vitest";
import { callMethod, errorCode } from "@/test/api/api-client";
import { createWorld, makeRequest, type World } from "@/test/api/world";

// SPEC Part A "list" and B2 "list".
let world: World;
const ids: Record<string, string> = {};

beforeAll(async () => {
  world = await createWorld();
  const { a, b } = world.pools;
  // Made in this order, so ids ascend in this order.
  ids.aPending = await makeRequest(world, { poolId: a });
  ids.aApproved = await makeRequest(world, { poolId: a, outcome: "approved" });
  ids.aRejected = await makeRequest(world, { poolId: a, outcome: "rejected" });
  ids.aConsumed = await makeRequest(world, { poolId: a, outcome: "consumed" });
  ids.aExpired = await makeRequest(world, { poolId: a, outcome: "expired" });
  ids.aApprovedExpired = await makeRequest(world, { poolId: a, outcome: "approved-expired" });
  ids.sitePending = await makeRequest(world, { poolId: null });
  ids.siteExpired = await makeRequest(world, { poolId: null, outcome: "expired" });
  ids.bPending = await makeRequest(world, { poolId: b });
  ids.otherSitePending = await makeRequest(world, { poolId: null, siteId: world.otherSiteId });
});

const list = (body: Record<string, unknown>, bearer = world.keys.admin) =>
  callMethod("joinRequests/list", { tenantId: world.tenantId, poolId: world.pools.a, ...body }, { bearer });
const idsOf = (response: { body: { joinRequests: { id: string }[] } }) => response.body.joinRequests.map((r) => r.id);

describe("joinRequests/list", () => {
  it("lists the pool's own and its site's unclaimed requests, pending by default, oldest first", async () => {
    const response = await list({});
    expect(response.status).toBe(200);
    expect(idsOf(response)).toEqual([ids.aPending, ids.sitePending]);
    expect(response.body.nextCursor).toBeUndefined();
    expect(response.body.joinRequests.every((r: { state: string }) => r.state === "pending")).toBe(true);
  });

  it("does not list another pool's requests or another site's unclaimed ones", async () => {
    const response = await list({ state: "all" });
    expect(idsOf(response)).not.toContain(ids.bPending);
    expect(idsOf(response)).not.toContain(ids.otherSitePending);
  });

  it.each([
    ["pending", ["aPending", "sitePending"]],
    ["approved", ["aApproved"]],
    ["rejected", ["aRejected"]],
    ["consumed", ["aConsumed"]],
    // pending/approved past expiry read as expired, though nothing marked them
    ["expired", ["aExpired", "aApprovedExpired", "siteExpired"]],
    ["all", ["aPending", "aApproved", "aRejected", "aConsumed", "aExpired", "aApprovedExpired", "sitePending", "siteExpired"]],
  ])("state %s filters on the effective state", async (state, names) => {
    const response = await list({ state });
    expect(response.status).toBe(200);
    expect(idsOf(response)).toEqual(names.map((name) => ids[name]));
    if (state !== "all") {
      for (const request of response.body.joinRequests) expect(request.state).toBe(state);
    }
  });

  it("null state and null limit mean the defaults", async () => {
    const response = await list({ state: null, limit: null, cursor: null });
    expect(response.status).toBe(200);
    expect(idsOf(response)).toEqual([ids.aPending, ids.sitePending]);
  });

  it("pages by cursor: nextCursor is the page's last id, present only when more follow", async () => {
    const first = await list({ state: "all", limit: 3 });
    expect(idsOf(first)).toEqual([ids.aPending, ids.aApproved, ids.aRejected]);
    expect(first.body.nextCursor).toBe(ids.aRejected);
    const second = await list({ state: "all", limit: 3, cursor: first.body.nextCursor });
    expect(idsOf(second)).toEqual([ids.aConsumed, ids.aExpired, ids.aApprovedExpired]);
    const third = await list({ state: "all", limit: 3, cursor: second.body.nextCursor });
    expect(idsOf(third)).toEqual([ids.sitePending, ids.siteExpired]);
    expect(third.body.nextCursor).toBeUndefined();
  });

  it("an exactly full last page has no nextCursor", async () => {
    const response = await list({ state: "all", limit: 8 });
    expect(response.body.joinRequests).toHaveLength(8);
    expect(response.body.nextCursor).toBeUndefined();
  });

  it("returns every field of a join request, timestamps in RFC 3339 UTC with milliseconds", async () => {
    const response = await list({ state: "approved" });
    const [request] = response.body.joinRequests;
    expect(Object.keys(request).sort()).toEqual(
      [
        // SPEC H1
        "approvals",
        "approvalsRequired",
        // SPEC I2: null when no quote measured the boot
        "bootMeasurement",
        "consumedAt",
        "createdAt",
        "csrSha256",
        "decidedAt",
        "decidedBy",
        // SPEC I1: null when the join sent no EK certificate
        "ekCertificate",
        "expiresAt",
        "id",
        "machine",
        "poolId",
        "reason",
        "reasons",
        "siteId",
        "state",
        "tenantId",
      ].sort(),
    );
    expect(Object.keys(request.machine).sort()).toEqual([
      "hostname",
      "macAddresses",
      "serialNumber",
      "systemUuid",
      "tpmEkProven",
      "tpmEkSha256",
    ]);
    expect(request).toMatchObject({
      tenantId: world.tenantId,
      siteId: world.siteId,
      poolId: world.pools.a,
      state: "approved",
      consumedAt: null,
      ekCertificate: null,
    });
    expect(request.id).toMatch(/^jreq_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(request.csrSha256).toMatch(/^[0-9a-f]{64}$/);
    for (const field of ["createdAt", "expiresAt", "decidedAt"]) {
      expect(request[field]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });

  it("an unclaimed site request has a null poolId", async () => {
    const response = await list({});
    const site = response.body.joinRequests.find((r: { id: string }) => r.id === ids.sitePending);
    expect(site.poolId).toBeNull();
  });

  it("works on an archived pool, which still sees its site's unclaimed requests", async () => {
    const response = await list({ poolId: world.pools.archived });
    expect(response.status).toBe(200);
    expect(idsOf(response)).toEqual([ids.sitePending]);
  });

  it("a viewer may list", async () => {
    expect((await list({}, world.keys.viewer)).status).toBe(200);
  });

  it("a pool the tenant does not own is NOT_FOUND", async () => {
    const response = await list({ poolId: world.other.poolId });
    expect(response.status).toBe(404);
    expect(errorCode(response)).toBe("NOT_FOUND");
  });

  it("a pool that exists nowhere is NOT_FOUND", async () => {
    const response = await list({ poolId: "no-such-pool" });
    expect(errorCode(response)).toBe("NOT_FOUND");
  });

  it("a cursor past the end returns an empty page", async () => {
    const response = await list({ state: "all", cursor: "jreq_zzzzzzzzzzzzzzzzzzzzzzzzzz" });
    expect(response.status).toBe(200);
    expect(response.body.joinRequests).toEqual([]);
  });
});
