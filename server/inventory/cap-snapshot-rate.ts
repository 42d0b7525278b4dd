import "server-only";
import { ApiError } from "../api/errors";
import type { Tx } from "../db/client";
import { log } from "../log";

/** SPEC G5: changed snapshots a node may store in any hour (a sliding window). */
export const MAX_CHANGES_PER_HOUR = 60;
const WINDOW_MS = 3_600_000;

/**
 * Refuses a node's next changed snapshot when it already stored
 * MAX_CHANGES_PER_HOUR within the hour before `now`: 429 with Retry-After,
 * the seconds until the oldest of them leaves the window. A node alternating
 * two reports would otherwise store up to 256 KiB a call without end.
 *
 * Runs inside the transaction that stores the snapshot, under the node row's
 * lock, so concurrent reports count each other. Reads at most the node's 60
 * newest snapshots through the (node_id, id) index: ids sort as takenAt does.
 */
export async function capSnapshotRate(tx: Tx, nodeId: string, now: Date): Promise<void> {
  const newest = await tx.inventorySnapshot.findMany({
    where: { nodeId },
    orderBy: { id: "desc" },
    take: MAX_CHANGES_PER_HOUR,
    select: { takenAt: true },
  });
  const oldest = newest.at(-1);
  if (newest.length < MAX_CHANGES_PER_HOUR || !oldest) return;
  const leavesInMs = oldest.takenAt.getTime() + WINDOW_MS - now.getTime();
  if (leavesInMs <= 0) return;
  const retryAfterSeconds = Math.max(1, Math.ceil(leavesInMs / 1000));
  log.warn("inventory report refused: snapshot cap", { node: nodeId, retryAfterSeconds });
  throw new ApiError(
    "RESOURCE_EXHAUSTED",
    `this node stored ${MAX_CHANGES_PER_HOUR} changed inventories within the hour (at most ${MAX_CHANGES_PER_HOUR}); ` +
      `an unchanged report is still taken; a changed one again in ${retryAfterSeconds} s`,
    undefined,
    retryAfterSeconds,
  );
}
