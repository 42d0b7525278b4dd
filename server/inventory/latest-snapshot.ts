import "server-only";
import type { Db, Tx } from "../db/client";
import { Prisma } from "../db/generated/client";

/** What inventory/report decides by: the node's latest snapshot's digest, and when it was first and last reported. */
export interface LatestSnapshot {
  id: string;
  sectionsSha256: string;
  takenAt: Date;
  lastReportedAt: Date;
}

/** The node's latest snapshot, read by id. */
export function readLatestSnapshot(db: Db | Tx, nodeId: string): Promise<LatestSnapshot | null> {
  return db.inventorySnapshot.findFirst({
    where: { nodeId },
    orderBy: { id: "desc" },
    select: { id: true, sectionsSha256: true, takenAt: true, lastReportedAt: true },
  });
}

/**
 * The same, as one JSON column over the node row `n`, for the statement that
 * authenticates the reporting node (authenticateNodeReading): the daemon's
 * unchanged report is then one round trip in all.
 */
export const LATEST_SNAPSHOT_COLUMN = Prisma.sql`(
  SELECT json_build_object('id', s.id, 'sectionsSha256', s.sections_sha256, 'takenAt', s.taken_at, 'lastReportedAt', s.last_reported_at)
  FROM inventory_snapshots s WHERE s.node_id = n.id ORDER BY s.id DESC LIMIT 1)`;

type LatestSnapshotJson = Record<keyof LatestSnapshot, string>;

export function latestSnapshotFromJson(value: unknown): LatestSnapshot | null {
  if (value === null) return null;
  const row = value as LatestSnapshotJson;
  return { id: row.id, sectionsSha256: row.sectionsSha256, takenAt: new Date(row.takenAt), lastReportedAt: new Date(row.lastReportedAt) };
}
