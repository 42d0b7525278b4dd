import { beforeAll, describe, expect, it } from "vitest";
import { callMethod, errorCode } from "@/test/api/api-client";
import { createWorld, makeRequest, type World } from "@/test/api/world";

// events/list's optional requestId filter (the console's timeline): only that
// request's events, and still only events the pool may see (SPEC B6).
let world: World;
const ids: Record<string, string> = {};

beforeAll(async () => {
  world = await createWorld();
  ids.approved = await makeRequest(world, { poolId: world.pools.a, outcome: "approved" });
  ids.pending = await makeRequest(world, { poolId: world.pools.a });
  ids.unclaimed = await makeRequest(world, { poolId: null });
  ids.otherPool = await makeRequest(world, { poolId: world.pools.b });
});

const list = (body: Record<string, unknown>) =>
  callMethod("events/list", { tenantId: world.tenantId, poolId: world.pools.a, ...body }, { bearer: world.keys.admin });
const typesOf = (response: { body: { events: { type: string; data: { requestId: string } }[] } }) =>
  response.body.events.map((event) => [event.data.requestId, event.type]);

describe("events/list requestId", () => {
  it("lists only that request's events, in order", async () => {
    const response = await list({ requestId: ids.approved });
    expect(response.status).toBe(200);
    expect(typesOf(response)).toEqual([
      [ids.approved, "security.join-request.created"],
      [ids.approved, "security.join-request.approved"],
    ]);
  });

  it("works with the other filters", async () => {
    const response = await list({ requestId: ids.approved, types: ["security.join-request.approved"] });
    expect(typesOf(response)).toEqual([[ids.approved, "security.join-request.approved"]]);
  });

  it("covers the site's unclaimed requests", async () => {
    expect(typesOf(await list({ requestId: ids.unclaimed }))).toEqual([[ids.unclaimed, "security.join-request.created"]]);
  });

  it("shows nothing of a request the pool cannot see", async () => {
    const response = await list({ requestId: ids.otherPool });
    expect(response.status).toBe(200);
    expect(response.body.events).toEqual([]);
  });

  it("omitted or null lists every request's events, as before", async () => {
    for (const requestId of [undefined, null]) {
      const requests = new Set(
        (await list({ requestId })).body.events.map((event: { data: { requestId: string } }) => event.data.requestId),
      );
      expect(requests).toEqual(new Set([ids.approved, ids.pending, ids.unclaimed]));
    }
  });

  it.each(["jreq_", "evt_01m8vr0000000000000000000", 42])("refuses a malformed requestId (%s)", async (requestId) => {
    const response = await list({ requestId });
    expect(response.status).toBe(400);
    expect(errorCode(response)).toBe("INVALID_ARGUMENT");
    expect(response.body.error.details[0].field).toBe("requestId");
  });
});
