import { generateKeyPairSync } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { reportInventory } from "@/server/inventory/report-inventory";
import { signNodeToken } from "@/lib/node-credential/sign-node-token";
import { createWorld, type World } from "@/test/api/world";
import { storeNode, type StoredNode } from "@/test/api/stored-node";
import { answerFloor } from "./answer-floor";

// The floors' inventory/report on real PostgreSQL: the app's answer to an
// unchanged report, the app's refusal to any bad credential, and the app's
// once-a-minute writes only when due.
const PATH = "/api/compute/inventory/report";
const REFUSED = JSON.stringify({ error: { code: "UNAUTHENTICATED", message: "the node credential is not valid" } });

let world: World;
let floorDb: pg.Pool;
beforeAll(async () => {
  world = await createWorld();
  floorDb = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
});
afterAll(() => floorDb.end());

const tokenOf = (node: StoredNode, options: { method?: string; privateKeyPem?: string } = {}) =>
  signNodeToken({
    privateKeyPem: options.privateKeyPem ?? node.privateKeyPem,
    nodeId: node.nodeId,
    method: options.method ?? "inventory/report",
  });
const report = async (node: StoredNode, bearer: string, sections: unknown = node.sections) =>
  answerFloor(floorDb, PATH, `Bearer ${bearer}`, JSON.stringify({ sections }));
const timesOf = async (node: StoredNode) => {
  const db = await getDb();
  const { lastSeenAt } = await db.node.findUniqueOrThrow({ where: { id: node.nodeId } });
  const { lastReportedAt } = await db.inventorySnapshot.findUniqueOrThrow({ where: { id: node.snapshotId } });
  return { lastSeenAt: lastSeenAt!.getTime(), lastReportedAt: lastReportedAt.getTime() };
};

describe("the floors' inventory/report", () => {
  it("answers an unchanged report as the app does, and writes nothing within the minute", async () => {
    const node = await storeNode(world, { at: new Date(Date.now() - 10_000) });
    const before = await timesOf(node);
    const floor = await report(node, await tokenOf(node));
    const app = await reportInventory({
      db: await getDb(),
      node: { ...world, id: node.nodeId, poolId: world.pools.a },
      sections: node.sections,
      now: new Date(),
    });
    expect(floor).toEqual({ status: 200, body: JSON.stringify(app) });
    expect(app).toEqual({ snapshotId: node.snapshotId, changed: false, changedSections: [] });
    expect(await timesOf(node)).toEqual(before);
  });

  it("moves lastSeenAt and lastReportedAt once they are a minute old", async () => {
    const node = await storeNode(world, { at: new Date(Date.now() - 120_000) });
    const before = await timesOf(node);
    expect((await report(node, await tokenOf(node))).status).toBe(200);
    const after = await timesOf(node);
    expect(after.lastSeenAt).toBeGreaterThan(before.lastSeenAt + 60_000);
    expect(after.lastReportedAt).toBeGreaterThan(before.lastReportedAt + 60_000);
  });

  it("refuses a bad credential with the app's one answer, writing nothing", async () => {
    const node = await storeNode(world, { at: new Date(Date.now() - 120_000) });
    const revoked = await storeNode(world, { revoked: true });
    const stranger = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const before = await timesOf(node);
    for (const [what, answer] of [
      ["another key's signature", await report(node, await tokenOf(node, { privateKeyPem: stranger }))],
      ["a token for another method", await report(node, await tokenOf(node, { method: "nodes/renew" }))],
      ["a token that is no JWT", await report(node, "not-a-jwt")],
      ["a revoked node", await report(revoked, await tokenOf(revoked))],
      [
        "an unknown node",
        await report(
          { ...node, nodeId: "node_01k9zz4m6y3d2n8q5r7t1v0w2x" },
          await tokenOf({ ...node, nodeId: "node_01k9zz4m6y3d2n8q5r7t1v0w2x" }),
        ),
      ],
    ] as const)
      expect(answer, what).toEqual({ status: 401, body: REFUSED });
    expect(await answerFloor(floorDb, PATH, undefined, "{}")).toEqual({ status: 401, body: REFUSED });
    expect(await timesOf(node)).toEqual(before);
  });

  it("stores nothing for a changed report: the floors answer only unchanged ones", async () => {
    const node = await storeNode(world);
    const answer = await report(node, await tokenOf(node), { ...node.sections, os: { name: "other" } });
    expect(answer.status).toBe(409);
    expect(await (await getDb()).inventorySnapshot.count({ where: { nodeId: node.nodeId } })).toBe(1);
  });
});
