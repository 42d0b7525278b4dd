import "server-only";
import { Prisma } from "../db/generated/client";
import type { Db } from "../db/client";

const BATCH = 1000;
const DAY_MS = 86_400_000;

/**
 * SPEC G5: deletes inventory snapshots taken more than
 * `inventoryRetentionDays` ago, except each node's latest (the one a newer
 * snapshot does not follow): a node that has not changed in years still
 * shows what it is. Batches of SKIP LOCKED rows, like the other retention
 * jobs, so several instances share the work and no statement runs long.
 */
export async function deleteOldSnapshots(input: { db: Db; now: Date; inventoryRetentionDays: number; tenantId?: string }): Promise<number> {
  const { db, tenantId } = input;
  const cutoff = new Date(input.now.getTime() - input.inventoryRetentionDays * DAY_MS);
  let deleted = 0;
  for (;;) {
    const count = await db.$executeRaw`
      DELETE FROM inventory_snapshots WHERE id IN (
        SELECT s.id FROM inventory_snapshots s
        WHERE s.taken_at < ${cutoff}
          AND EXISTS (SELECT 1 FROM inventory_snapshots newer WHERE newer.node_id = s.node_id AND newer.id > s.id)
          ${tenantId ? Prisma.sql`AND s.node_id IN (SELECT n.id FROM nodes n WHERE n.tenant_id = ${tenantId})` : Prisma.empty}
        LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED)`;
    deleted += count;
    if (count < BATCH) return deleted;
  }
}
