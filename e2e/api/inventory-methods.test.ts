import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { applyInventoryChange, gpuServerInventory } from "@/lib/inventory/gpu-server-inventory";
import { callMethod, expectError } from "@/test/api/api-client";
import { createJoinWorld, type JoinWorld } from "@/test/api/machine";
import { admitNode, callAsNode, type TestNode } from "@/test/api/node";

// SPEC D3 over HTTP: inventory/report as the node, inventory/get|list as users and services.
let world: JoinWorld;
beforeAll(async () => {
  world = await createJoinWorld();
});

const report = (node: TestNode, sections: unknown) => callAsNode("inventory/report", { sections }, node);
const history = (node: TestNode, body: Record<string, unknown> = {}, bearer = world.keys.viewer) =>
  callMethod("inventory/list", { tenantId: world.tenantId, nodeId: node.nodeId, ...body }, { bearer });
const latest = (node: TestNode, body: Record<string, unknown> = {}, bearer = world.keys.viewer) =>
  callMethod("inventory/get", { tenantId: world.tenantId, nodeId: node.nodeId, ...body }, { bearer });
const inventoryOf = (node: TestNode) => gpuServerInventory(node.machine);
const snapshotCount = async (node: TestNode) => (await getDb()).inventorySnapshot.count({ where: { nodeId: node.nodeId } });

describe("inventory/report (D3)", () => {
  it("the first report stores every section; the node and inventory/get show it; one inventory-changed event", async () => {
    const node = await admitNode(world);
    const sections = { ...inventoryOf(node), "rack-position": { row: "B", unit: 12 } };
    const answer = await report(node, sections);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      snapshotId: expect.stringMatching(/^inv_[0-9a-hjkmnp-tv-z]{26}$/),
      changed: true,
      changedSections: Object.keys(sections).sort(),
    });

    const snapshot = await latest(node);
    expect(snapshot.status).toBe(200);
    expect(snapshot.body).toEqual({
      id: answer.body.snapshotId,
      nodeId: node.nodeId,
      takenAt: expect.any(String),
      lastReportedAt: expect.any(String),
      sectionsSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      changedSections: answer.body.changedSections,
      sections, // unknown section kept
    });
    const published = await callMethod("nodes/get", { tenantId: world.tenantId, nodeId: node.nodeId }, { bearer: world.keys.viewer });
    expect(published.body.inventory).toEqual({
      snapshotId: answer.body.snapshotId,
      takenAt: snapshot.body.takenAt,
      lastReportedAt: snapshot.body.lastReportedAt,
    });

    const events = await callMethod(
      "events/list",
      { tenantId: world.tenantId, poolId: world.pools.a, types: ["compute.node.inventory-changed"], limit: 200 },
      { bearer: world.keys.admin },
    );
    const mine = events.body.events.filter((event: { data: { nodeId: string } }) => event.data.nodeId === node.nodeId);
    expect(mine.map((event: { data: unknown }) => event.data)).toEqual([
      expect.objectContaining({ nodeId: node.nodeId, snapshotId: answer.body.snapshotId, changedSections: answer.body.changedSections }),
    ]);
  });

  it("the same content with keys in another order stores nothing and, a minute on, moves lastReportedAt", async () => {
    const node = await admitNode(world);
    const sections = inventoryOf(node);
    const first = await report(node, sections);
    const reordered = Object.fromEntries(
      Object.entries(sections)
        .reverse()
        .map(([name, value]) => [name, Array.isArray(value) ? value : Object.fromEntries(Object.entries(value as object).reverse())]),
    );
    expect((await report(node, reordered)).body).toEqual({ snapshotId: first.body.snapshotId, changed: false, changedSections: [] });
    expect(await snapshotCount(node)).toBe(1);

    const db = await getDb();
    const earlier = new Date(Date.now() - 120_000);
    await db.inventorySnapshot.update({ where: { id: first.body.snapshotId }, data: { lastReportedAt: earlier } });
    expect((await report(node, reordered)).body.changed).toBe(false);
    const moved = await db.inventorySnapshot.findUniqueOrThrow({ where: { id: first.body.snapshotId } });
    expect(moved.lastReportedAt.getTime()).toBeGreaterThan(earlier.getTime() + 60_000);
    expect(await snapshotCount(node)).toBe(1);
  });

  it("one changed field stores a snapshot naming exactly that section; A → B → A keeps three snapshots", async () => {
    const node = await admitNode(world);
    const a = inventoryOf(node);
    const b = { ...a, os: { ...a.os, kernel: "5.15.0-106-generic" } };
    await report(node, a);
    const changed = await report(node, b);
    expect(changed.body).toMatchObject({ changed: true, changedSections: ["os"] });
    const back = await report(node, a);
    expect(back.body).toMatchObject({ changed: true, changedSections: ["os"] });
    expect(await snapshotCount(node)).toBe(3);
    const removed = await report(node, { ...a, software: undefined, extra: [{ name: "x" }] });
    expect(removed.body.changedSections).toEqual(["extra", "software"]);
  });

  it("nodes/list shows each node's newest snapshot among several, as nodes/get does", async () => {
    const node = await admitNode(world);
    const a = inventoryOf(node);
    await report(node, a);
    await report(node, { ...a, os: { ...a.os, kernel: "5.15.0-106-generic" } });
    const newest = await report(node, a);
    expect(await snapshotCount(node)).toBe(3);
    const pages = [];
    let cursor: string | undefined;
    do {
      const page = await callMethod(
        "nodes/list",
        { tenantId: world.tenantId, poolId: world.pools.a, limit: 200, ...(cursor ? { cursor } : {}) },
        { bearer: world.keys.viewer },
      );
      expect(page.status).toBe(200);
      pages.push(...page.body.nodes);
      cursor = page.body.nextCursor;
    } while (cursor);
    const listed = pages.find((entry: { id: string }) => entry.id === node.nodeId);
    const published = await callMethod("nodes/get", { tenantId: world.tenantId, nodeId: node.nodeId }, { bearer: world.keys.viewer });
    expect(listed.inventory.snapshotId).toBe(newest.body.snapshotId);
    expect(listed).toEqual(published.body);
  });

  it("20 concurrent identical reports of new content store one snapshot", async () => {
    const node = await admitNode(world);
    await report(node, inventoryOf(node));
    const next = applyInventoryChange(inventoryOf(node), "driver");
    const answers = await Promise.all(Array.from({ length: 20 }, () => report(node, next)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((answer) => answer.body.changed)).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.body.snapshotId)).size).toBe(1);
    expect(await snapshotCount(node)).toBe(2);
  });

  it("bad shapes are INVALID_ARGUMENT naming the path; nothing is stored", async () => {
    const node = await admitNode(world);
    const wrong = await report(node, { ...inventoryOf(node), gpus: [{ index: 0, memoryBytes: "80 GB" }] });
    expectError(wrong, 400, "INVALID_ARGUMENT");
    expect(wrong.body.error.message).toMatch(/^sections\.gpus\.0\.memoryBytes /);
    expect(wrong.body.error.details[0].field).toBe("sections.gpus.0.memoryBytes");
    expectError(await report(node, { Bad: {} }), 400, "INVALID_ARGUMENT");
    expectError(await report(node, { note: "a string" }), 400, "INVALID_ARGUMENT");
    expectError(await callAsNode("inventory/report", { sections: {}, extra: true }, node), 400, "INVALID_ARGUMENT");
    expect(await snapshotCount(node)).toBe(0);
  });

  it("bodies up to 256 KiB are taken (this method only); 257 KiB is 413", async () => {
    const node = await admitNode(world);
    const bodyOf = (bytes: number) => {
      const shell = JSON.stringify({ sections: { blob: { data: "" } } });
      return JSON.stringify({ sections: { blob: { data: "x".repeat(bytes - shell.length) } } });
    };
    const fits = await callAsNode("inventory/report", undefined, node, { rawBody: bodyOf(256 * 1024) });
    expect(fits.status).toBe(200);
    const tooLarge = await callAsNode("inventory/report", undefined, node, { rawBody: bodyOf(257 * 1024) });
    expectError(tooLarge, 413, "PAYLOAD_TOO_LARGE");
    expect(await snapshotCount(node)).toBe(1);
  });
});

describe("inventory/get and inventory/list (D3)", () => {
  it("history newest first with its sections, paged by cursor; get by snapshotId; NOT_FOUND before the first report", async () => {
    const node = await admitNode(world);
    expectError(await latest(node), 404, "NOT_FOUND");
    expect((await history(node)).body).toEqual({ snapshots: [] });

    const a = inventoryOf(node);
    const b = applyInventoryChange(a, "driver");
    const c = applyInventoryChange(b, "gpu-replaced");
    const ids = [];
    for (const sections of [a, b, c]) ids.push((await report(node, sections)).body.snapshotId);

    const page1 = await history(node, { limit: 2 });
    expect(page1.body.snapshots.map((snapshot: { id: string }) => snapshot.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.snapshots[0].sections).toEqual(c);
    expect(page1.body.snapshots[0].changedSections).toEqual(["gpus"]);
    expect(page1.body.snapshots[1].changedSections).toEqual(["gpus", "software"]);
    const page2 = await history(node, { limit: 2, cursor: page1.body.nextCursor });
    expect(page2.body).toEqual({ snapshots: [expect.objectContaining({ id: ids[0], sections: a })] });

    expect((await latest(node)).body.id).toBe(ids[2]);
    expect((await latest(node, { snapshotId: ids[0] })).body.sections).toEqual(a);
    const other = await admitNode(world);
    expectError(await latest(other, { snapshotId: ids[0] }), 404, "NOT_FOUND");
  });

  it("decided on compute-node/{nodeId} in the B2 order; inputs checked", async () => {
    const node = await admitNode(world, world.tokens.b);
    await report(node, inventoryOf(node));
    expectError(await history(node, {}, world.keys.poolAdminA), 403, "PERMISSION_DENIED");
    expectError(await latest(node, {}, world.keys.noGrants), 403, "PERMISSION_DENIED");
    expect((await latest(node, {}, world.keys.admin)).status).toBe(200);
    expectError(await history(node, { limit: 0 }), 400, "INVALID_ARGUMENT");
    expectError(await history(node, { cursor: "node_01jz0000000000000000000000" }), 400, "INVALID_ARGUMENT");
    expectError(await latest(node, { snapshotId: "inv_x" }), 400, "INVALID_ARGUMENT");
  });
});
