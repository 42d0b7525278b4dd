import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { ApiError } from "../api/errors";
import { newId } from "@/lib/ids";
import { createWorld, type World } from "@/test/api/world";
import { LAST_REPORTED_RESOLUTION_MS, reportInventory, type ReportingNode } from "./report-inventory";

// SPEC D3 on real PostgreSQL: append-only history, one snapshot per distinct
// content in a row, the unchanged path writing at most once a minute.
let world: World;
beforeAll(async () => {
  world = await createWorld();
});

async function makeNode(): Promise<ReportingNode> {
  const db = await getDb();
  const node = { id: newId("node"), tenantId: world.tenantId, siteId: world.siteId, poolId: world.pools.a };
  await db.node.create({
    data: {
      ...node,
      hostname: `n-${randomBytes(3).toString("hex")}.test`,
      systemUuid: randomBytes(16).toString("hex"),
      serialNumber: "SN",
      csrSha256: randomBytes(32).toString("hex"),
      certSerial: randomBytes(8).toString("hex"),
      certNotAfter: new Date(Date.now() + 30 * 86_400_000),
    },
  });
  return node;
}

const base = {
  system: { vendor: "Supermicro", product: "AS-8125GS", serialNumber: "S123", systemUuid: "4c4c4544-0000", biosVersion: "2.1" },
  gpus: [0, 1].map((index) => ({
    index,
    vendor: "NVIDIA",
    model: "H100 80GB",
    uuid: `GPU-${index}`,
    memoryBytes: 85_899_345_920,
    driverVersion: "550.54.15",
  })),
  os: { name: "Ubuntu", version: "24.04", kernel: "6.8.0-45", arch: "x86_64" },
  "rack-position": { row: "B", unit: 12 },
};
const at = (offsetMs: number) => new Date(Date.parse("2026-12-03T12:00:00Z") + offsetMs);
const snapshotsOf = async (nodeId: string) => (await getDb()).inventorySnapshot.findMany({ where: { nodeId }, orderBy: { id: "asc" } });
const eventsOf = async (nodeId: string) =>
  (
    await (
      await getDb()
    ).event.findMany({ where: { type: "compute.node.inventory-changed", tenantId: world.tenantId }, orderBy: { id: "asc" } })
  ).filter((event) => (event.data as { nodeId: string }).nodeId === nodeId);

describe("reportInventory", () => {
  it("the first report stores every section, changedSections all names, with one inventory-changed event", async () => {
    const node = await makeNode();
    const db = await getDb();
    const answer = await reportInventory({ db, node, sections: base, now: at(0) });
    expect(answer).toEqual({
      snapshotId: expect.stringMatching(/^inv_[0-9a-hjkmnp-tv-z]{26}$/),
      changed: true,
      changedSections: ["gpus", "os", "rack-position", "system"],
    });
    const [snapshot] = await snapshotsOf(node.id);
    expect(snapshot).toMatchObject({ id: answer.snapshotId, takenAt: at(0), lastReportedAt: at(0), sections: base }); // the unknown section kept as given
    const events = await eventsOf(node.id);
    expect(events.map((event) => event.data)).toEqual([
      {
        nodeId: node.id,
        snapshotId: answer.snapshotId,
        changedSections: answer.changedSections,
        siteId: node.siteId,
        poolId: node.poolId,
        actor: node.id,
      },
    ]);
    expect(events[0]).toMatchObject({ poolId: node.poolId, siteId: node.siteId, requestId: null });
  });

  it("the same content with keys in another order stores nothing; lastReportedAt moves at most once a minute", async () => {
    const node = await makeNode();
    const db = await getDb();
    const first = await reportInventory({ db, node, sections: base, now: at(0) });
    const reordered = {
      os: { arch: "x86_64", kernel: "6.8.0-45", version: "24.04", name: "Ubuntu" },
      "rack-position": { unit: 12, row: "B" },
      gpus: base.gpus,
      system: base.system,
    };
    expect(await reportInventory({ db, node, sections: reordered, now: at(30_000) })).toEqual({
      snapshotId: first.snapshotId,
      changed: false,
      changedSections: [],
    });
    expect((await snapshotsOf(node.id)).map((snapshot) => snapshot.lastReportedAt)).toEqual([at(0)]); // within the minute: no write
    await reportInventory({ db, node, sections: reordered, now: at(LAST_REPORTED_RESOLUTION_MS + 1_000) });
    expect((await snapshotsOf(node.id)).map((snapshot) => snapshot.lastReportedAt)).toEqual([at(LAST_REPORTED_RESOLUTION_MS + 1_000)]);
    expect(await eventsOf(node.id)).toHaveLength(1);
  });

  it("one changed field: a new snapshot naming exactly that section; A → B → A keeps three", async () => {
    const node = await makeNode();
    const db = await getDb();
    const upgraded = { ...base, gpus: base.gpus.map((gpu) => ({ ...gpu, driverVersion: "560.35.03" })) };
    await reportInventory({ db, node, sections: base, now: at(0) });
    const changed = await reportInventory({ db, node, sections: upgraded, now: at(1_000) });
    expect(changed).toMatchObject({ changed: true, changedSections: ["gpus"] });
    const back = await reportInventory({ db, node, sections: base, now: at(2_000) });
    expect(back).toMatchObject({ changed: true, changedSections: ["gpus"] });
    const history = await snapshotsOf(node.id);
    expect(history.map((snapshot) => snapshot.changedSections)).toEqual([["gpus", "os", "rack-position", "system"], ["gpus"], ["gpus"]]);
    expect(history[0]!.sectionsSha256).toBe(history[2]!.sectionsSha256);
    expect(await eventsOf(node.id)).toHaveLength(3);
  });

  it("a removed and an added section are both changes", async () => {
    const node = await makeNode();
    const db = await getDb();
    await reportInventory({ db, node, sections: base, now: at(0) });
    const { "rack-position": _gone, ...rest } = base;
    const answer = await reportInventory({
      db,
      node,
      sections: { ...rest, disks: [{ name: "nvme0n1", kind: "nvme", sizeBytes: 3_840_755_982_336 }] },
      now: at(1_000),
    });
    expect(answer.changedSections).toEqual(["disks", "rack-position"]);
  });

  it("20 concurrent reports of new identical content: one snapshot, one event", async () => {
    const node = await makeNode();
    const db = await getDb();
    await reportInventory({ db, node, sections: base, now: at(0) });
    const next = { ...base, memory: { totalBytes: 2_199_023_255_552 } };
    const answers = await Promise.all(Array.from({ length: 20 }, () => reportInventory({ db, node, sections: next, now: at(5_000) })));
    expect(new Set(answers.map((answer) => answer.snapshotId)).size).toBe(1);
    expect(answers.filter((answer) => answer.changed)).toHaveLength(1);
    expect(await snapshotsOf(node.id)).toHaveLength(2);
    expect(await eventsOf(node.id)).toHaveLength(2);
  });

  it("ids sort as the history does even when a later report carries an earlier clock", async () => {
    const node = await makeNode();
    const db = await getDb();
    const first = await reportInventory({ db, node, sections: base, now: at(10_000) });
    const second = await reportInventory({ db, node, sections: { ...base, os: { ...base.os, kernel: "6.8.0-50" } }, now: at(9_000) });
    expect(second.snapshotId > first.snapshotId).toBe(true);
  });
});

describe("at most 60 changed snapshots in any hour (SPEC G5)", () => {
  const counter = (value: number) => ({ counter: { value } });
  it("the 61st change within the hour is RESOURCE_EXHAUSTED with Retry-After until the oldest leaves; unchanged is taken; then it moves on", async () => {
    const node = await makeNode();
    const db = await getDb();
    // 60 changes, one every 30 s: the window's oldest is at(0)
    for (let index = 0; index < 60; index++) {
      expect((await reportInventory({ db, node, sections: counter(index), now: at(index * 30_000) })).changed).toBe(true);
    }
    const refused = await reportInventory({ db, node, sections: counter(60), now: at(1_800_000) }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: "RESOURCE_EXHAUSTED", retryAfterSeconds: 1_800 });
    expect(await snapshotsOf(node.id)).toHaveLength(60);
    expect((await eventsOf(node.id)).length).toBe(60);

    // the same content as the latest is never refused
    expect(await reportInventory({ db, node, sections: counter(59), now: at(1_800_000) })).toMatchObject({ changed: false });
    // a second before the oldest leaves: 1 s to wait; once it has left, one more fits
    await expect(reportInventory({ db, node, sections: counter(60), now: at(3_599_000) })).rejects.toMatchObject({ retryAfterSeconds: 1 });
    expect((await reportInventory({ db, node, sections: counter(60), now: at(3_600_000) })).changed).toBe(true);
    await expect(reportInventory({ db, node, sections: counter(61), now: at(3_600_000) })).rejects.toMatchObject({
      code: "RESOURCE_EXHAUSTED",
      retryAfterSeconds: 30,
    });
    expect(await snapshotsOf(node.id)).toHaveLength(61);
  });
});

describe("getSnapshot / listSnapshots", () => {
  it("the latest by default, a named one, NOT_FOUND before the first report or for another node's snapshot", async () => {
    const { getSnapshot } = await import("./read-snapshots");
    const node = await makeNode();
    const other = await makeNode();
    const db = await getDb();
    await expect(getSnapshot({ db, nodeId: node.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: `node ${node.id} has not reported an inventory yet`,
    });
    const first = await reportInventory({ db, node, sections: base, now: at(0) });
    const second = await reportInventory({ db, node, sections: { ...base, os: { ...base.os, version: "24.10" } }, now: at(1_000) });
    expect(await getSnapshot({ db, nodeId: node.id })).toMatchObject({
      id: second.snapshotId,
      changedSections: ["os"],
      takenAt: at(1_000).toISOString(),
    });
    expect((await getSnapshot({ db, nodeId: node.id, snapshotId: first.snapshotId })).sections).toEqual(base);
    await expect(getSnapshot({ db, nodeId: other.id, snapshotId: first.snapshotId })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("history newest first, paged by cursor", async () => {
    const { listSnapshots } = await import("./read-snapshots");
    const node = await makeNode();
    const db = await getDb();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await reportInventory({ db, node, sections: { ...base, memory: { totalBytes: i } }, now: at(i * 1_000) })).snapshotId);
    const first = await listSnapshots({ db, nodeId: node.id, limit: 2 });
    expect(first.snapshots.map((snapshot) => snapshot.id)).toEqual([ids[4], ids[3]]);
    const second = await listSnapshots({ db, nodeId: node.id, limit: 2, cursor: first.nextCursor });
    const third = await listSnapshots({ db, nodeId: node.id, limit: 2, cursor: second.nextCursor });
    expect([...second.snapshots, ...third.snapshots].map((snapshot) => snapshot.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(third.nextCursor).toBeUndefined();
    expect(third.snapshots[0]!.sections).toEqual({ ...base, memory: { totalBytes: 0 } }); // the oldest, whole
  });
});
