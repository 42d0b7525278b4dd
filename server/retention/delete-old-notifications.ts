import "server-only";
import { Prisma } from "../db/generated/client";
import type { Db } from "../db/client";

const BATCH = 500;

/**
 * Deletes the mail notification log as old as the events it was made from
 * (eventRetentionDays): finished deliveries (sent, dead, not_configured) with
 * their attempts and digest items, and the marks of requests escalated that
 * long ago (a request never stays pending that long). Pending ones stay,
 * however old. Batched with SKIP LOCKED, so several instances may run it.
 */
export async function deleteOldNotifications(input: { db: Db; now: Date; eventRetentionDays: number; tenantId?: string }): Promise<number> {
  const { db, tenantId } = input;
  const cutoff = new Date(input.now.getTime() - input.eventRetentionDays * 86_400_000);
  const scope = tenantId ? Prisma.sql`AND tenant_id = ${tenantId}` : Prisma.empty;
  let deleted = 0;
  for (;;) {
    const count = await db.$executeRaw`
      DELETE FROM notification_deliveries WHERE id IN (
        SELECT id FROM notification_deliveries
        WHERE status <> 'pending' AND created_at < ${cutoff} ${scope}
        LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED)`;
    deleted += count;
    if (count < BATCH) break;
  }
  const escalations = tenantId
    ? Prisma.sql`AND request_id IN (SELECT request_id FROM events WHERE tenant_id = ${tenantId} AND type = 'compute.join-request.escalated')`
    : Prisma.empty;
  await db.$executeRaw`DELETE FROM notification_escalations WHERE escalated_at < ${cutoff} ${escalations}`;
  return deleted;
}
