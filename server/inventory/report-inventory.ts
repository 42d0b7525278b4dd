import "server-only";
import type { Db, Tx } from "../db/client";
import { writeStatement } from "../db/write-statement";
import { Prisma } from "../db/generated/client";
import { newId } from "@/lib/ids";
import { changedSections, sectionsSha256 } from "@/lib/inventory/sections-digest";
import type { InventorySections } from "@/lib/validations/inventory";
import { recordNodeEvent, type EventNode } from "../events/record-node-event";
import { capSnapshotRate } from "./cap-snapshot-rate";
import { readLatestSnapshot, type LatestSnapshot } from "./latest-snapshot";

/** An unchanged report moves lastReportedAt at most this often: reports are frequent, writes are not free. */
export const LAST_REPORTED_RESOLUTION_MS = 60_000;

export interface ReportAnswer {
  snapshotId: string;
  changed: boolean;
  changedSections: string[];
}

export type ReportingNode = EventNode;

/**
 * SPEC D3: stores a report as the node's next snapshot unless its content
 * (RFC 8785 + SHA-256) is the latest snapshot's. The unchanged path, the
 * common one, is one indexed read (`latest`, which inventory/report reads with
 * the node's credential; read here when not given) and at most one small
 * update a minute, no lock. A change is written under the node row's lock, re-reading the latest
 * snapshot there, so concurrent reports of one node never store the same
 * content twice in a row; its `compute.node.inventory-changed` event is in
 * the same transaction (the outbox). A change past the node's hourly cap
 * (SPEC G5) is refused there, storing nothing; an unchanged report never is.
 */
export async function reportInventory(input: {
  db: Db;
  node: ReportingNode;
  sections: InventorySections;
  now: Date;
  latest?: LatestSnapshot | null;
}): Promise<ReportAnswer> {
  const { db, node, sections, now } = input;
  const digest = sectionsSha256(sections);
  const latest = input.latest === undefined ? await readLatestSnapshot(db, node.id) : input.latest;
  if (latest?.sectionsSha256 === digest) return unchanged(db, latest, now);

  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM nodes WHERE id = ${node.id} FOR UPDATE`;
    const current = await readLatestSnapshot(tx, node.id);
    if (current?.sectionsSha256 === digest) return unchanged(tx, current, now); // a concurrent report stored it first
    await capSnapshotRate(tx, node.id, now); // counted under the lock: concurrent changes count each other
    const previous = current
      ? await tx.inventorySnapshot.findUniqueOrThrow({ where: { id: current.id }, select: { sections: true } })
      : null;
    const changed = changedSections(previous ? (previous.sections as Record<string, unknown>) : null, sections);
    // ids sort as the history does, even when this process's clock is behind the one that wrote the latest
    const id = newId("inv", Math.max(now.getTime(), (current?.takenAt.getTime() ?? 0) + 1));
    await tx.inventorySnapshot.create({
      data: {
        id,
        nodeId: node.id,
        takenAt: now,
        lastReportedAt: now,
        sectionsSha256: digest,
        changedSections: changed,
        sections: sections as Prisma.InputJsonObject,
      },
    });
    await recordNodeEvent(tx, {
      type: "compute.node.inventory-changed",
      node,
      actor: node.id,
      now,
      data: { snapshotId: id, changedSections: changed },
    });
    return { snapshotId: id, changed: true, changedSections: changed };
  });
}

/** The same content again: moves lastReportedAt when it is a minute old (conditional, so concurrent reports write it once). */
async function unchanged(db: Db | Tx, latest: LatestSnapshot, now: Date): Promise<ReportAnswer> {
  if (lastReportedDue(latest.lastReportedAt, now)) await writeStatement(db, touchLastReportedSql(latest.id, now));
  return unchangedReport(latest.id);
}

/** Whether an unchanged report at `now` moves the snapshot's lastReportedAt: a minute old. */
export const lastReportedDue = (lastReportedAt: Date, now: Date) => lastReportedAt < lastReportedStaleBefore(now);

/** Moves the snapshot's lastReportedAt to `now` when it is due (conditional: concurrent reports write it once). */
export const touchLastReportedSql = (snapshotId: string, now: Date) => Prisma.sql`
  UPDATE inventory_snapshots SET last_reported_at = ${now}
  WHERE id = ${snapshotId} AND last_reported_at < ${lastReportedStaleBefore(now)}`;

/** An unchanged report at `now` moves a lastReportedAt earlier than this. */
const lastReportedStaleBefore = (now: Date) => new Date(now.getTime() - LAST_REPORTED_RESOLUTION_MS);

/** The answer to a report of what the latest snapshot already holds. */
export const unchangedReport = (snapshotId: string): ReportAnswer => ({ snapshotId, changed: false, changedSections: [] });
