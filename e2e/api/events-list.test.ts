import { beforeAll, describe, expect, it } from "vitest";
import { callMethod, expectError, principalOf } from "@/test/api/api-client";
import { createWorld, eventsOf, makeRequest, makeRequests, type World } from "@/test/api/world";

// SPEC B6: POST /api/compute/events/list, and the events every transition writes.
const T = {
  created: "security.join-request.created",
  approved: "security.join-request.approved",
  rejected: "security.join-request.rejected",
  consumed: "security.join-request.consumed",
} as const;

interface EventJson {
  id: string;
  type: string;
  occurredAt: string;
  tenantId: string;
  data: Record<string, unknown>;
}

const listEvents = (world: World, body: Record<string, unknown> = {}, bearer = world.keys.admin) =>
  callMethod("events/list", { tenantId: world.tenantId, poolId: world.pools.a, limit: 200, ...body }, { bearer });
const decide = (world: World, method: "approve" | "reject", body: Record<string, unknown>, poolId = world.pools.a) =>
  callMethod(`joinRequests/${method}`, { tenantId: world.tenantId, poolId, ...body }, { bearer: world.keys.admin });
const eventIds = (response: { body: { events: EventJson[] } }) => response.body.events.map((event) => event.id);
/** The stored events of these requests, in ascending id order. */
async function storedEventIds(requestIds: string[]): Promise<string[]> {
  const events = (await Promise.all(requestIds.map(eventsOf))).flat();
  return events.map((event) => event.id).sort();
}
const requestIdsOf = (events: EventJson[]) => new Set(events.map((event) => event.data.requestId));

/** A fresh tenant with requests of every kind of owner, decided over HTTP. */
async function scene() {
  const world = await createWorld();
  const { a, b } = world.pools;
  const ids = {
    ownPending: await makeRequest(world, { poolId: a }),
    ownApproved: await makeRequest(world, { poolId: a }),
    ownRejected: await makeRequest(world, { poolId: a }),
    ownConsumed: await makeRequest(world, { poolId: a, outcome: "consumed" }),
    siteUnclaimed: await makeRequest(world, { poolId: null }),
    bOwn: await makeRequest(world, { poolId: b }),
    otherSite: await makeRequest(world, { poolId: null, siteId: world.otherSiteId }),
  };
  const approval = await decide(world, "approve", { requestId: ids.ownApproved, ttlSeconds: 1200 });
  await decide(world, "reject", { requestId: ids.ownRejected, reason: "unexpected hardware" });
  await decide(world, "approve", { requestId: ids.bOwn }, b);
  return { world, ids, approvedExpiresAt: approval.body.expiresAt as string };
}

let s: Awaited<ReturnType<typeof scene>>;
beforeAll(async () => {
  s = await scene();
});

describe("events/list returns the pool's events (B6)", () => {
  it("the events of its own requests and of its site's unclaimed ones, in ascending id order, and no others", async () => {
    const { ids } = s;
    const response = await listEvents(s.world);
    expect(response.status).toBe(200);
    const expected = await storedEventIds([ids.ownPending, ids.ownApproved, ids.ownRejected, ids.ownConsumed, ids.siteUnclaimed]);
    expect(eventIds(response)).toEqual(expected);
    expect(response.body.nextCursor).toBeUndefined();
    const seen = requestIdsOf(response.body.events);
    expect(seen.has(ids.bOwn)).toBe(false);
    expect(seen.has(ids.otherSite)).toBe(false);
  });

  it("a sibling pool sees its own and the site's unclaimed requests' events, not the other pool's", async () => {
    const response = await listEvents(s.world, { poolId: s.world.pools.b });
    expect(eventIds(response)).toEqual(await storedEventIds([s.ids.bOwn, s.ids.siteUnclaimed]));
  });

  it("an archived pool still sees its site's unclaimed requests' events", async () => {
    const response = await listEvents(s.world, { poolId: s.world.pools.archived });
    expect(response.status).toBe(200);
    expect(eventIds(response)).toEqual(await storedEventIds([s.ids.siteUnclaimed]));
  });

  it("a site request's events move with it when a pool claims it", async () => {
    const world = await createWorld();
    const id = await makeRequest(world, { poolId: null });
    const [created] = await storedEventIds([id]);
    expect(eventIds(await listEvents(world))).toContain(created);
    expect(eventIds(await listEvents(world, { poolId: world.pools.b }))).toContain(created);

    expect((await decide(world, "approve", { requestId: id }, world.pools.b)).status).toBe(200);
    const claimer = eventIds(await listEvents(world, { poolId: world.pools.b }));
    expect(claimer).toEqual(await storedEventIds([id]));
    expect(claimer).toHaveLength(2);
    expect(requestIdsOf((await listEvents(world)).body.events).has(id)).toBe(false);
  });
});

describe("each event's shape (B6)", () => {
  const byType = async (type: string) => {
    const events: EventJson[] = (await listEvents(s.world)).body.events;
    return events.filter((event) => event.type === type);
  };

  it("has exactly id (evt_ ULID), type, occurredAt (RFC 3339 UTC, ms), tenantId and data {requestId, siteId, poolId, actor}", async () => {
    const events: EventJson[] = (await listEvents(s.world)).body.events;
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      expect(Object.keys(event).sort()).toEqual(["data", "id", "occurredAt", "tenantId", "type"]);
      expect(event.id).toMatch(/^evt_[0-9a-hjkmnp-tv-z]{26}$/);
      expect(event.occurredAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(event.tenantId).toBe(s.world.tenantId);
      expect(event.data).toMatchObject({ requestId: expect.any(String), siteId: s.world.siteId, actor: expect.any(String) });
      expect(event.data).toHaveProperty("poolId");
    }
  });

  it("an unclaimed request's created event has a null poolId", async () => {
    const [created] = (await byType(T.created)).filter((event) => event.data.requestId === s.ids.siteUnclaimed);
    expect(created!.data.poolId).toBeNull();
  });

  it(".approved carries the new expiresAt, the pool and actor bcsk_<id>", async () => {
    const approved = (await byType(T.approved)).filter((event) => event.data.requestId === s.ids.ownApproved);
    expect(approved).toHaveLength(1);
    expect(approved[0]!.data).toMatchObject({
      requestId: s.ids.ownApproved,
      poolId: s.world.pools.a,
      actor: principalOf(s.world.keys.admin),
      expiresAt: s.approvedExpiresAt,
    });
  });

  it(".rejected carries previousState and the reason given", async () => {
    const rejected = (await byType(T.rejected)).filter((event) => event.data.requestId === s.ids.ownRejected);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.data).toMatchObject({
      requestId: s.ids.ownRejected,
      previousState: "pending",
      reason: "unexpected hardware",
      actor: principalOf(s.world.keys.admin),
    });
  });
});

describe("filtering and paging (B6)", () => {
  it.each([[[T.approved]], [[T.rejected, T.consumed]], [[T.created]]])("types %j returns only events of those types", async (types) => {
    const all: EventJson[] = (await listEvents(s.world)).body.events;
    const response = await listEvents(s.world, { types });
    expect(response.status).toBe(200);
    expect(eventIds(response)).toEqual(all.filter((event) => types.includes(event.type as never)).map((event) => event.id));
    expect(response.body.events.length).toBeGreaterThan(0);
  });

  it("pages by limit; nextCursor is the page's last id, present only when more follow; after= continues", async () => {
    const all = eventIds(await listEvents(s.world));
    const pages: string[][] = [];
    let after: string | undefined;
    do {
      const response = await listEvents(s.world, { limit: 2, after });
      expect(response.status).toBe(200);
      const page = eventIds(response);
      pages.push(page);
      if (response.body.nextCursor) expect(response.body.nextCursor).toBe(page[page.length - 1]);
      after = response.body.nextCursor;
    } while (after);
    expect(pages.flat()).toEqual(all);
    expect(pages.slice(0, -1).every((page) => page.length === 2)).toBe(true);
  });

  it("after an event id returns only later events; an exactly full last page has no nextCursor", async () => {
    const all = eventIds(await listEvents(s.world));
    const response = await listEvents(s.world, { after: all[1], limit: all.length - 2 });
    expect(eventIds(response)).toEqual(all.slice(2));
    expect(response.body.nextCursor).toBeUndefined();
  });

  it("an after cursor past the end returns an empty page", async () => {
    const response = await listEvents(s.world, { after: "evt_zzzzzzzzzzzzzzzzzzzzzzzzzz" });
    expect(response.body).toEqual({ events: [] });
  });
});

describe("who may read events (B6: compute:join-tokens:read on the pool)", () => {
  it("a pool-viewer may read", async () => {
    const response = await listEvents(s.world, {}, s.world.keys.viewer);
    expect(response.status).toBe(200);
    expect(response.body.events.length).toBeGreaterThan(0);
  });

  it.each([
    ["a pool-scoped admin on another pool", "poolAdminA", "b", 403, "PERMISSION_DENIED"],
    ["a key with no grant", "noGrants", "a", 403, "PERMISSION_DENIED"],
    ["an admin naming another tenant's pool", "admin", "foreign", 404, "NOT_FOUND"],
    ["an admin naming a pool that exists nowhere", "admin", "missing", 404, "NOT_FOUND"],
  ] as const)("%s → %i %s", async (_, key, pool, status, code) => {
    const poolId = { a: s.world.pools.a, b: s.world.pools.b, foreign: s.world.other.poolId, missing: "no-such-pool" }[pool];
    expectError(await listEvents(s.world, { poolId }, s.world.keys[key]), status, code);
  });

  it("another tenant's admin asking for this tenant → 403", async () => {
    expectError(await listEvents(s.world, {}, s.world.other.admin), 403, "PERMISSION_DENIED");
  });
});

describe("default and maximum page sizes (Part A list: up to 200, 100 by default; B6 events: limit 1-200, default 100)", () => {
  let world: World;
  let requests: string[];
  beforeAll(async () => {
    world = await createWorld();
    requests = await makeRequests(world, 201, { poolId: world.pools.a });
  });

  it("joinRequests/list: 100 by default, 200 at most, nextCursor when more follow", async () => {
    const call = (body: Record<string, unknown>) =>
      callMethod("joinRequests/list", { tenantId: world.tenantId, poolId: world.pools.a, ...body }, { bearer: world.keys.admin });
    const byDefault = await call({});
    expect(byDefault.body.joinRequests.map((r: { id: string }) => r.id)).toEqual(requests.slice(0, 100));
    expect(byDefault.body.nextCursor).toBe(requests[99]);
    const max = await call({ limit: 200 });
    expect(max.body.joinRequests).toHaveLength(200);
    expect(max.body.nextCursor).toBe(requests[199]);
  });

  it("events/list: 100 by default, 200 at most, nextCursor when more follow", async () => {
    const all = await storedEventIds(requests);
    expect(all).toHaveLength(201);
    const call = (body: Record<string, unknown>) =>
      callMethod("events/list", { tenantId: world.tenantId, poolId: world.pools.a, ...body }, { bearer: world.keys.admin });
    const byDefault = await call({});
    expect(byDefault.body.events.map((event: EventJson) => event.id)).toEqual(all.slice(0, 100));
    expect(byDefault.body.nextCursor).toBe(all[99]);
    const max = await call({ limit: 200 });
    expect(max.body.events).toHaveLength(200);
    expect(max.body.nextCursor).toBe(all[199]);
  });
});
