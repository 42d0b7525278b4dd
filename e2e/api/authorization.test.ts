import { beforeAll, describe, expect, it } from "vitest";
import { callMethod, expectError, type ApiResponse } from "@/test/api/api-client";
import { createWorld, eventsOf, makeRequest, storedRequest, type World } from "@/test/api/world";

// SPEC B4 (who may call what), B2 "Order of checks" (AIP-211: nothing leaks across tenants).
let world: World;
let pendingA: string; // a pending request of pool a, for the decision methods
beforeAll(async () => {
  world = await createWorld();
  pendingA = await makeRequest(world, { poolId: world.pools.a });
});

type Method = "joinRequests/list" | "joinRequests/approve" | "joinRequests/reject" | "events/list";
const METHODS: Method[] = ["joinRequests/list", "joinRequests/approve", "joinRequests/reject", "events/list"];
const DECISIONS: Method[] = ["joinRequests/approve", "joinRequests/reject"];
const READS: Method[] = ["joinRequests/list", "events/list"];
const NO_SUCH_POOL = "no-such-pool-anywhere";

/** A valid body for `method` (a decision names pendingA unless `requestId` is given). */
function bodyFor(method: Method, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = { tenantId: world.tenantId, poolId: world.pools.a };
  if (DECISIONS.includes(method)) body.requestId = pendingA;
  return { ...body, ...overrides };
}
const call = (method: Method, bearer: string | null, overrides: Record<string, unknown> = {}) =>
  callMethod(method, bodyFor(method, overrides), { bearer });
const withAuthorization = (method: Method, authorization: string) => callMethod(method, bodyFor(method), { headers: { authorization } });
/** The body with a pool's id blanked out, to compare answers about different pools. */
const withoutPool = (response: ApiResponse, poolId: string) => response.text.replaceAll(poolId, "<pool>");
const secretOf = (bearer: string) => bearer.slice(bearer.indexOf(".") + 1);

describe("authentication: service keys (B4)", () => {
  it.each(METHODS)("%s without an Authorization header → 401 UNAUTHENTICATED", async (method) => {
    expectError(await call(method, null), 401, "UNAUTHENTICATED");
  });

  const MALFORMED: [string, (admin: string) => string][] = [
    ["Bearer with nothing", () => "Bearer"],
    ["Basic credentials", () => "Basic dXNlcjpwYXNzd29yZA=="],
    ["the key without the Bearer scheme", (admin) => admin],
    ["a key without its secret", (admin) => `Bearer ${admin.slice(0, admin.indexOf("."))}`],
    ["a key without its id", (admin) => `Bearer bcsk_.${secretOf(admin)}`],
    ["a join token instead of a service key", (admin) => `Bearer bcjt_${admin.slice(5)}`],
    ["a site enrollment key instead of a service key", (admin) => `Bearer bcse_${admin.slice(5)}`],
    ["garbage", () => "Bearer \u00e9t\u00e9 !"],
  ];
  const malformedCases = METHODS.flatMap((method) => MALFORMED.map(([label, make]) => [method, label, make] as const));
  it.each(malformedCases)("%s with %s → 401 UNAUTHENTICATED", async (method, _, make) => {
    const response = await withAuthorization(method, make(world.keys.admin));
    expectError(response, 401, "UNAUTHENTICATED");
    expect(response.text).not.toContain(secretOf(world.keys.admin));
  });

  it.each(METHODS)(
    "%s: an unknown key id, a wrong secret and a revoked key get identical 401 bodies, echoing no secret",
    async (method) => {
      const [adminId, adminSecret] = [world.keys.admin.slice(0, world.keys.admin.indexOf(".")), secretOf(world.keys.admin)];
      const presented = {
        unknownId: `bcsk_knosuchkey0000.${adminSecret}`,
        wrongSecret: `${adminId}.not-the-secret-${adminSecret.slice(0, 4)}`,
        revoked: world.keys.revoked,
      };
      const responses = await Promise.all(Object.values(presented).map((bearer) => call(method, bearer)));
      for (const response of responses) expectError(response, 401, "UNAUTHENTICATED");
      expect(responses[1]!.body).toEqual(responses[0]!.body);
      expect(responses[2]!.body).toEqual(responses[0]!.body);
      for (const [index, bearer] of Object.values(presented).entries()) {
        expect(responses[index]!.text).not.toContain(secretOf(bearer));
      }
    },
  );
});

describe("order of checks (B2): authenticate → parse → authorize → pool → request → state", () => {
  it.each(METHODS)("%s: unauthenticated with an invalid body → 401, not 400", async (method) => {
    expectError(await callMethod(method, undefined, { rawBody: "{not json" }), 401, "UNAUTHENTICATED");
    expectError(await callMethod(method, { colour: "blue" }, { bearer: world.keys.revoked }), 401, "UNAUTHENTICATED");
  });

  it.each(METHODS)("%s: authenticated, invalid body, no grant → 400, not 403", async (method) => {
    expectError(await call(method, world.keys.noGrants, { limit: "ten", colour: "blue" }), 400, "INVALID_ARGUMENT");
    expectError(await call(method, world.other.admin, { poolId: "-bad" }), 400, "INVALID_ARGUMENT");
  });

  it.each(DECISIONS)("%s: a viewer naming a pool that does not exist → 403, not 404", async (method) => {
    expectError(await call(method, world.keys.viewer, { poolId: NO_SUCH_POOL }), 403, "PERMISSION_DENIED");
  });

  it.each(DECISIONS)("%s: a request the pool cannot see in a decided state → 404, not 409", async (method) => {
    const consumedInB = await makeRequest(world, { poolId: world.pools.b, outcome: "consumed" });
    expectError(await call(method, world.keys.admin, { requestId: consumedInB }), 404, "NOT_FOUND");
  });
});

describe("permissions on compute-pool/{poolId} (B4 roles)", () => {
  it.each(DECISIONS)("%s by a pool-viewer → 403 PERMISSION_DENIED, nothing changes", async (method) => {
    const id = await makeRequest(world, { poolId: world.pools.a });
    expectError(await call(method, world.keys.viewer, { requestId: id }), 403, "PERMISSION_DENIED");
    expect((await storedRequest(id)).state).toBe("pending");
    expect((await eventsOf(id)).map((event) => event.type)).toEqual(["security.join-request.created"]);
  });

  it.each(READS)("%s by a pool-viewer → 200", async (method) => {
    expect((await call(method, world.keys.viewer)).status).toBe(200);
  });

  it.each(METHODS)("%s by a pool-scoped admin on its own pool → 200", async (method) => {
    const overrides = DECISIONS.includes(method) ? { requestId: await makeRequest(world, { poolId: world.pools.a }) } : {};
    const response = await call(method, world.keys.poolAdminA, overrides);
    expect(response.status, response.text).toBe(200);
  });

  it.each(METHODS)("%s by a pool-scoped admin on another pool → 403, whether that pool exists or not", async (method) => {
    const requestId = DECISIONS.includes(method) ? { requestId: await makeRequest(world, { poolId: world.pools.b }) } : {};
    const existing = await call(method, world.keys.poolAdminA, { poolId: world.pools.b, ...requestId });
    const missing = await call(method, world.keys.poolAdminA, { poolId: NO_SUCH_POOL, ...requestId });
    expectError(existing, 403, "PERMISSION_DENIED");
    expectError(missing, 403, "PERMISSION_DENIED");
    expect(withoutPool(existing, world.pools.b)).toBe(withoutPool(missing, NO_SUCH_POOL));
  });

  it.each(METHODS)("%s by a key with no grant → the same 403 for an existing and a non-existent pool", async (method) => {
    const existing = await call(method, world.keys.noGrants);
    const missing = await call(method, world.keys.noGrants, { poolId: NO_SUCH_POOL });
    expectError(existing, 403, "PERMISSION_DENIED");
    expectError(missing, 403, "PERMISSION_DENIED");
    expect(withoutPool(existing, world.pools.a)).toBe(withoutPool(missing, NO_SUCH_POOL));
  });

  it.each(METHODS)("%s by another tenant's admin asking for this tenant → 403", async (method) => {
    expectError(await call(method, world.other.admin), 403, "PERMISSION_DENIED");
    expectError(await call(method, world.other.admin, { poolId: NO_SUCH_POOL }), 403, "PERMISSION_DENIED");
  });
});

describe("pools and requests the caller cannot see are NOT_FOUND (B2)", () => {
  it.each(METHODS)(
    "%s: this tenant's admin naming another tenant's pool → 404, answered as for a pool that exists nowhere",
    async (method) => {
      const foreign = await call(method, world.keys.admin, { poolId: world.other.poolId });
      const missing = await call(method, world.keys.admin, { poolId: NO_SUCH_POOL });
      expectError(foreign, 404, "NOT_FOUND");
      expectError(missing, 404, "NOT_FOUND");
      expect(withoutPool(foreign, world.other.poolId)).toBe(withoutPool(missing, NO_SUCH_POOL));
    },
  );

  it.each(METHODS)("%s: another tenant's admin naming this tenant's pool under its own tenant → 404", async (method) => {
    expectError(await call(method, world.other.admin, { tenantId: world.other.tenantId }), 404, "NOT_FOUND");
  });

  const INVISIBLE: [string, () => Promise<string>][] = [
    ["that does not exist", async () => "jreq_01arz3ndektsv4rrffq69g5fav"],
    ["of another site, unclaimed", () => makeRequest(world, { poolId: null, siteId: world.otherSiteId })],
    ["of a pool in another site", () => makeRequest(world, { poolId: world.pools.otherSite, siteId: world.otherSiteId })],
    ["of another pool in the same site", () => makeRequest(world, { poolId: world.pools.b })],
    [
      "of another tenant",
      () => makeRequest(world, { tenantId: world.other.tenantId, siteId: world.other.siteId, poolId: world.other.poolId }),
    ],
  ];
  const cases = DECISIONS.flatMap((method) => INVISIBLE.map(([label, make]) => [method, label, make] as const));

  it.each(cases)("%s a request %s → 404 NOT_FOUND, nothing changes", async (method, _, make) => {
    const id = await make();
    const before = await eventsOf(id);
    expectError(await call(method, world.keys.admin, { requestId: id }), 404, "NOT_FOUND");
    expect(await eventsOf(id)).toEqual(before);
  });
});
