import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { findPool } from "@/server/places/find-pool";
import { listNodes } from "@/server/nodes/list-nodes";
import { createWorld, type World } from "@/test/api/world";
import { storeNode } from "@/test/api/stored-node";
import { answerFloor } from "./answer-floor";

// The floors' nodes/list on real PostgreSQL: the app's bytes, page by page,
// in every state filter, with an attested node, a revoked one and one without
// a snapshot; the app's refusal of a caller without the grant.
const PATH = "/api/compute/nodes/list";

let world: World;
let floorDb: pg.Pool;
beforeAll(async () => {
  world = await createWorld();
  floorDb = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  const db = await getDb();
  const [attested, , withoutSnapshot] = [await storeNode(world), await storeNode(world), await storeNode(world)];
  await storeNode(world, { revoked: true });
  await db.node.update({
    where: { id: attested.nodeId },
    data: {
      attestationState: "untrusted",
      attestedAt: new Date(),
      attestationPcrs: { "7": "ab".repeat(32), "0": "cd".repeat(32) },
      attestationUnmatched: [7],
    },
  });
  await db.inventorySnapshot.deleteMany({ where: { nodeId: withoutSnapshot.nodeId } });
});
afterAll(() => floorDb.end());

const listBody = (input: Record<string, unknown>) => JSON.stringify({ tenantId: world.tenantId, poolId: world.pools.a, ...input });

describe("the floors' nodes/list", () => {
  it("answers the app's bytes, page after page, in each state filter", async () => {
    const pool = await findPool(await getDb(), world.tenantId, world.pools.a);
    for (const state of ["active", "revoked", "all"] as const) {
      let cursor: string | undefined;
      let pages = 0;
      do {
        const app = await listNodes({ db: await getDb(), pool, state, limit: 2, cursor, now: new Date() });
        const floor = await answerFloor(floorDb, PATH, `Bearer ${world.keys.viewer}`, listBody({ state, limit: 2, cursor }));
        expect(floor, `${state}, page ${pages + 1}`).toEqual({ status: 200, body: JSON.stringify(app) });
        cursor = app.nextCursor;
        pages++;
      } while (cursor);
      expect(pages, state).toBe(state === "revoked" ? 1 : 2);
    }
  });

  it("refuses a caller without compute:nodes:read on the pool as the app does", async () => {
    const answer = await answerFloor(floorDb, PATH, `Bearer ${world.keys.noGrants}`, listBody({}));
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).error.code).toBe("PERMISSION_DENIED");
  });
});
