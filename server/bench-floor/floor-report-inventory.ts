import { methodPath } from "@/lib/api/method-path";
import { sectionsSha256 } from "@/lib/inventory/sections-digest";
import { ApiError } from "@/server/api/errors";
import type { Prisma } from "@/server/db/generated/client";
import { LATEST_SNAPSHOT_COLUMN, latestSnapshotFromJson } from "@/server/inventory/latest-snapshot";
import { lastReportedDue, touchLastReportedSql, unchangedReport, type ReportAnswer } from "@/server/inventory/report-inventory";
import { reportInventoryMethod } from "@/server/methods/inventory-methods";
import { claimedNode, lastSeenDue, refuseNodeCredential, touchLastSeenSql, verifiedSerial } from "@/server/nodes/authenticate-node";
import { nodeCredentialSql, type NodeCredentialRow } from "@/server/nodes/node-credential-sql";
import type { FloorCall } from "./floor-call";

// inventory/report on the floors, unchanged only: the daemon's common call
// (its node reports what its latest snapshot already holds), with nothing the
// job does not need. The app's own pieces decide (authenticate-node.ts,
// report-inventory.ts) over the app's own one statement (the node, its valid
// certificates and its latest snapshot: nodeCredentialSql), sent through pg.
// A changed report, or a node's first, is an error here: it would store a
// snapshot and its event in a transaction, and the bench drives the floors
// with unchanged reports only (the app's changed row has no floor).

/** The JWT's audience, as the app verifies it (serve-method.ts serveMachineMethod). */
const AUDIENCE = methodPath(reportInventoryMethod.name);

export async function reportUnchangedFloor({ db, authorization, text, now }: FloorCall): Promise<ReportAnswer> {
  const { token, nodeId } = claimedNode(authorization ?? null);
  const sql = nodeCredentialSql(nodeId, now, LATEST_SNAPSHOT_COLUMN);
  const [node] = (await db.query<NodeCredentialRow>(sql.text, sql.values as unknown[])).rows;
  const write = (statement: Prisma.Sql) => db.query(statement.text, statement.values as unknown[]);
  if (!node) throw refuseNodeCredential("unknown-node", nodeId);
  if (node.state !== "active") throw refuseNodeCredential("revoked", nodeId);
  await verifiedSerial({ token, nodeId, certificates: node.certificates, audience: AUDIENCE, now });
  // the app's once-a-minute writes, only when the row read shows them due (steady state: none)
  if (lastSeenDue(node.lastSeenAt, now)) await write(touchLastSeenSql(nodeId, now));

  const { sections } = JSON.parse(text) as { sections: Record<string, unknown> };
  const latest = latestSnapshotFromJson(node.also);
  if (!latest || latest.sectionsSha256 !== sectionsSha256(sections))
    throw new ApiError("INVALID_STATE", "the bench floor answers only a report of the node's latest snapshot (it stores none)");
  if (lastReportedDue(latest.lastReportedAt, now)) await write(touchLastReportedSql(latest.id, now));
  return unchangedReport(latest.id);
}
