import "server-only";
import { ApiError } from "../api/errors";
import type { Db } from "../db/client";
import { toSnapshotJson, type SnapshotJson } from "@/lib/inventory/snapshot-json";

/** inventory/get: the node's latest snapshot, or the one named; NOT_FOUND when there is none. */
export async function getSnapshot(input: { db: Db; nodeId: string; snapshotId?: string }): Promise<SnapshotJson> {
  const { db, nodeId, snapshotId } = input;
  const row = await db.inventorySnapshot.findFirst({
    where: snapshotId ? { id: snapshotId, nodeId } : { nodeId },
    orderBy: { id: "desc" },
  });
  if (!row) {
    throw new ApiError(
      "NOT_FOUND",
      snapshotId ? `snapshot ${snapshotId} of node ${nodeId} not found` : `node ${nodeId} has not reported an inventory yet`,
    );
  }
  return toSnapshotJson(row);
}

/** inventory/list: the node's history newest first, each with its sections; `cursor` is the last id of the previous page. */
export async function listSnapshots(input: {
  db: Db;
  nodeId: string;
  limit: number;
  cursor?: string;
}): Promise<{ snapshots: SnapshotJson[]; nextCursor?: string }> {
  const { db, nodeId, limit, cursor } = input;
  const rows = await db.inventorySnapshot.findMany({
    where: { nodeId, ...(cursor ? { id: { lt: cursor } } : {}) },
    orderBy: { id: "desc" },
    take: limit + 1, // one more tells whether a next page exists
  });
  const page = rows.slice(0, limit);
  return rows.length > limit
    ? { snapshots: page.map(toSnapshotJson), nextCursor: page.at(-1)!.id }
    : { snapshots: page.map(toSnapshotJson) };
}

/** The sections of these snapshots by id (the console's node list summarises each node's latest). */
export async function sectionsOf(db: Db, snapshotIds: string[]): Promise<Map<string, Record<string, unknown>>> {
  if (snapshotIds.length === 0) return new Map();
  const rows = await db.inventorySnapshot.findMany({ where: { id: { in: snapshotIds } }, select: { id: true, sections: true } });
  return new Map(rows.map((row) => [row.id, row.sections as Record<string, unknown>]));
}
