import "server-only";
import { Prisma } from "../db/generated/client";
import type { Db } from "../db/client";

const BATCH = 1000;
const DAY_MS = 86_400_000;

/**
 * Deletes events older than `eventRetentionDays` whose request is gone
 * (retention deleted it), with their webhook deliveries and attempts
 * (ON DELETE CASCADE). A request that still exists keeps its whole timeline.
 */
export async function deleteOldEvents(input: { db: Db; now: Date; eventRetentionDays: number; tenantId?: string }): Promise<number> {
  const { db, tenantId } = input;
  const cutoff = new Date(input.now.getTime() - input.eventRetentionDays * DAY_MS);
  let deleted = 0;
  for (;;) {
    const count = await db.$executeRaw`
      DELETE FROM events WHERE id IN (
        SELECT e.id FROM events e
        WHERE e.occurred_at < ${cutoff}
          AND NOT EXISTS (SELECT 1 FROM join_requests r WHERE r.id = e.request_id)
          ${tenantId ? Prisma.sql`AND e.tenant_id = ${tenantId}` : Prisma.empty}
        LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED)`;
    deleted += count;
    if (count < BATCH) return deleted;
  }
}
