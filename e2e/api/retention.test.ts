import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { runRetention } from "@/server/retention/run-retention";
import { callMethod } from "@/test/api/api-client";
import { createWorld, makeRequest, storedRequest, type World } from "@/test/api/world";

// Retention marking changes what is stored, never what the API answers: the
// effective state already read `expired` (SPEC B1). The pass is limited to this
// file's tenant (the shared server runs no workers).
let world: World;
let ids: Record<string, string>;
beforeAll(async () => {
  world = await createWorld();
  const { a } = world.pools;
  ids = {
    expiredPending: await makeRequest(world, { poolId: a, outcome: "expired" }),
    expiredApproval: await makeRequest(world, { poolId: a, outcome: "approved-expired" }),
    expiredSite: await makeRequest(world, { poolId: null, outcome: "expired" }),
    pending: await makeRequest(world, { poolId: a }),
    approved: await makeRequest(world, { poolId: a, outcome: "approved" }),
    rejected: await makeRequest(world, { poolId: a, outcome: "rejected" }),
    consumed: await makeRequest(world, { poolId: a, outcome: "consumed" }),
  };
});

const list = (state: string, poolId = world.pools.a, cursor?: string) =>
  callMethod("joinRequests/list", { tenantId: world.tenantId, poolId, state, limit: 3, cursor }, { bearer: world.keys.admin });

/** Every page of every filter, as the API's JSON text. */
async function everyListing(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const poolId of [world.pools.a, world.pools.b]) {
    for (const state of ["all", "pending", "approved", "rejected", "expired", "consumed"]) {
      const pages: string[] = [];
      let cursor: string | undefined;
      do {
        const response = await list(state, poolId, cursor);
        expect(response.status, response.text).toBe(200);
        pages.push(response.text);
        cursor = response.body.nextCursor;
      } while (cursor);
      out[`${poolId}:${state}`] = pages;
    }
  }
  return out;
}

describe("marking by retention, seen through the API", () => {
  it("joinRequests/list answers byte for byte the same before and after marking, for every filter and page", async () => {
    const before = await everyListing();
    expect(JSON.parse(before[`${world.pools.a}:expired`]![0]!).joinRequests.length).toBe(3);
    const pass = await runRetention({ db: await getDb(), now: new Date(), tenantId: world.tenantId });
    expect(pass.marked).toBe(3);
    for (const name of ["expiredPending", "expiredApproval", "expiredSite"])
      expect((await storedRequest(ids[name]!)).state).toBe("expired");
    expect(await everyListing()).toEqual(before);
  });

  it("a marked request answers approve and reject as it did before (INVALID_STATE), and events/list shows its .expired event", async () => {
    for (const method of ["approve", "reject"]) {
      const response = await callMethod(
        `joinRequests/${method}`,
        { tenantId: world.tenantId, poolId: world.pools.a, requestId: ids.expiredApproval },
        { bearer: world.keys.admin },
      );
      expect(response.status).toBe(409);
    }
    const events = await callMethod(
      "events/list",
      { tenantId: world.tenantId, poolId: world.pools.a, types: ["security.join-request.expired"] },
      { bearer: world.keys.viewer },
    );
    expect(events.status).toBe(200);
    const expired = events.body.events as { data: { requestId: string; actor: string } }[];
    expect(expired.map((event) => event.data.requestId).sort()).toEqual([ids.expiredPending, ids.expiredApproval, ids.expiredSite].sort());
    for (const event of expired) expect(event.data.actor).toBe("system:retention");
  });
});
