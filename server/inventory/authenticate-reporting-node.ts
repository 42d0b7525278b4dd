import "server-only";
import type { Db } from "../db/client";
import { authenticateNodeReading, type AuthenticatedNode } from "../nodes/authenticate-node";
import { LATEST_SNAPSHOT_COLUMN, latestSnapshotFromJson, type LatestSnapshot } from "./latest-snapshot";

/** inventory/report's node: authenticated, with its latest snapshot read in the same statement. */
export type ReportingNodeCredential = AuthenticatedNode & { latest: LatestSnapshot | null };

export async function authenticateReportingNode(db: Db, request: Request, now: Date, audience: string): Promise<ReportingNodeCredential> {
  const { also, ...node } = await authenticateNodeReading(db, request, now, audience, LATEST_SNAPSHOT_COLUMN);
  return { ...node, latest: latestSnapshotFromJson(also) };
}
