import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { newId } from "@/lib/ids";
import { createWorld, type World } from "@/test/api/world";
import { runRetention } from "./run-retention";

// SPEC G5 on real PostgreSQL: inventory snapshots older than the window go,
// in batches; a node's latest snapshot stays however old it is.
const DAY = 86_400_000;
const settings = { retentionDays: 30, eventRetentionDays: 90, inventoryRetentionDays: 365 };

async function makeNode(world: World): Promise<string> {
  const id = newId("node");
  await (
    await getDb()
  ).node.create({
    data: {
      id,
      tenantId: world.tenantId,
      siteId: world.siteId,
      poolId: world.pools.a,
      hostname: `n-${randomBytes(3).toString("hex")}.test`,
      systemUuid: randomBytes(16).toString("hex"),
      serialNumber: "SN",
      csrSha256: randomBytes(32).toString("hex"),
      certSerial: randomBytes(8).toString("hex"),
      certNotAfter: new Date(Date.now() + 30 * DAY),
    },
  });
  return id;
}

/** Backdated snapshots of `nodeId`, one per age in days, oldest first; their ids in that order. */
async function snapshotsAged(nodeId: string, now: number, agesInDays: number[]): Promise<string[]> {
  const rows = agesInDays.map((age, index) => {
    const takenAt = new Date(now - age * DAY);
    return {
      id: newId("inv", takenAt.getTime()),
      nodeId,
      takenAt,
      lastReportedAt: takenAt,
      sectionsSha256: index.toString(16).padStart(64, "0"),
      changedSections: ["os"],
      sections: { os: { kernel: `6.${index}` } },
    };
  });
  await (await getDb()).inventorySnapshot.createMany({ data: rows });
  return rows.map((row) => row.id);
}

const idsOf = async (nodeId: string) =>
  (await (await getDb()).inventorySnapshot.findMany({ where: { nodeId }, orderBy: { id: "asc" }, select: { id: true } })).map(
    (row) => row.id,
  );

describe("inventory snapshot retention (SPEC G5)", () => {
  it("deletes snapshots older than the window, never a node's latest, even when the latest is older than the window", async () => {
    const world = await createWorld();
    const db = await getDb();
    const now = Date.now();
    const active = await makeNode(world);
    const quiet = await makeNode(world);
    const activeIds = await snapshotsAged(active, now, [800, 400, 366, 364, 10]);
    const quietIds = await snapshotsAged(quiet, now, [900, 700, 500]);

    const pass = await runRetention({ db, now: new Date(now), settings, tenantId: world.tenantId });
    expect(pass.deletedSnapshots).toBe(5);
    expect(await idsOf(active)).toEqual(activeIds.slice(3));
    expect(await idsOf(quiet)).toEqual(quietIds.slice(2)); // the latest, 500 days old, stays
    expect((await runRetention({ db, now: new Date(now), settings, tenantId: world.tenantId })).deletedSnapshots).toBe(0);
  });

  it("works through more rows than one batch", async () => {
    const world = await createWorld();
    const db = await getDb();
    const now = Date.now();
    const node = await makeNode(world);
    const ids = await snapshotsAged(node, now, [...Array.from({ length: 2_500 }, (_, index) => 3_000 - index), 1]);
    const pass = await runRetention({ db, now: new Date(now), settings, tenantId: world.tenantId });
    expect(pass.deletedSnapshots).toBe(2_500);
    expect(await idsOf(node)).toEqual(ids.slice(-1));
  });

  it("limited to one tenant, leaves the others' snapshots alone", async () => {
    const mine = await createWorld();
    const theirs = await createWorld();
    const now = Date.now();
    const other = await makeNode(theirs);
    const otherIds = await snapshotsAged(other, now, [800, 10]);
    await runRetention({ db: await getDb(), now: new Date(now), settings, tenantId: mine.tenantId });
    expect(await idsOf(other)).toEqual(otherIds);
  });
});
