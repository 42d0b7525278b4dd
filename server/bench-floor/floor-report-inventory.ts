import { methodPath } from "@/lib/api/method-path";
import { sectionsSha256 } from "@/lib/inventory/sections-digest";
import { ApiError } from "@/server/api/errors";
import { lastReportedStaleBefore, unchangedReport, type ReportAnswer } from "@/server/inventory/report-inventory";
import { reportInventoryMethod } from "@/server/methods/inventory-methods";
import { claimedNode, lastSeenDue, lastSeenStaleBefore, refuseNodeCredential, verifiedSerial } from "@/server/nodes/authenticate-node";
import type { FloorCall } from "./floor-call";

// inventory/report on the floors, unchanged only: the daemon's common call
// (its node reports what its latest snapshot already holds), with nothing the
// job does not need. The app's own pieces (authenticate-node.ts,
// report-inventory.ts) decide; the floor only reads in one statement what the
// app reads in three (the node, its valid certificates, its latest snapshot).
// A changed report, or a node's first, is an error here: it would store a
// snapshot and its event in a transaction, and the bench drives the floors
// with unchanged reports only (the app's changed row has no floor).

/** The JWT's audience, as the app verifies it (serve-method.ts serveMachineMethod). */
const AUDIENCE = methodPath(reportInventoryMethod.name);

/** One row per certificate still valid at $2 (one with nulls when none); none for an unknown node. */
const NODE_FOR_REPORT_SQL = `
  SELECT n.state, n.last_seen_at AS "lastSeenAt",
    c.serial, c.public_key AS "publicKey", c.not_after AS "notAfter",
    s.id AS "snapshotId", s.sections_sha256 AS "sectionsSha256", s.last_reported_at AS "lastReportedAt"
  FROM nodes n
  LEFT JOIN node_certificates c ON c.node_id = n.id AND c.not_after > $2
  LEFT JOIN LATERAL (
    SELECT id, sections_sha256, last_reported_at FROM inventory_snapshots WHERE node_id = n.id ORDER BY id DESC LIMIT 1
  ) s ON true
  WHERE n.id = $1
  ORDER BY c.id`;

interface NodeForReportRow {
  state: string;
  lastSeenAt: Date | null;
  serial: string | null;
  publicKey: Buffer | null;
  notAfter: Date | null;
  snapshotId: string | null;
  sectionsSha256: string | null;
  lastReportedAt: Date | null;
}

export async function reportUnchangedFloor({ db, authorization, text, now }: FloorCall): Promise<ReportAnswer> {
  const { token, nodeId } = claimedNode(authorization ?? null);
  const { rows } = await db.query<NodeForReportRow>(NODE_FOR_REPORT_SQL, [nodeId, now]);
  const [node] = rows;
  if (!node) throw refuseNodeCredential("unknown-node", nodeId);
  if (node.state !== "active") throw refuseNodeCredential("revoked", nodeId);
  const certificates = rows.flatMap(({ serial, publicKey, notAfter }) =>
    serial && publicKey && notAfter ? [{ serial, publicKey, notAfter }] : [],
  );
  await verifiedSerial({ token, nodeId, certificates, audience: AUDIENCE, now });
  // the app's once-a-minute writes, only when the row read shows them due (steady state: none)
  if (lastSeenDue(node.lastSeenAt, now))
    await db.query(`UPDATE nodes SET last_seen_at = $2 WHERE id = $1 AND (last_seen_at IS NULL OR last_seen_at <= $3)`, [
      nodeId,
      now,
      lastSeenStaleBefore(now),
    ]);

  const { sections } = JSON.parse(text) as { sections: Record<string, unknown> };
  if (!node.snapshotId || node.sectionsSha256 !== sectionsSha256(sections))
    throw new ApiError("INVALID_STATE", "the bench floor answers only a report of the node's latest snapshot (it stores none)");
  if (node.lastReportedAt! < lastReportedStaleBefore(now))
    await db.query(`UPDATE inventory_snapshots SET last_reported_at = $2 WHERE id = $1 AND last_reported_at < $3`, [
      node.snapshotId,
      now,
      lastReportedStaleBefore(now),
    ]);
  return unchangedReport(node.snapshotId);
}
