import "server-only";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { eventIdFloor } from "@/lib/ids";
import { SCAN_LAG_MS } from "../webhooks/enqueue-deliveries";
import { notifyEvent, OUTCOME_EVENT_TYPES, WAITING_EVENT_TYPES, type ScannedEvent } from "./notify-event";

const TYPES = [...WAITING_EVENT_TYPES, ...OUTCOME_EVENT_TYPES];
const BATCH = 200;

/**
 * Considers the events no notification was made for yet, the webhooks' way:
 * each tenant's cursor trails the clock by SCAN_LAG_MS (a late commit's event
 * is still ahead of it), the events already handled are skipped by their
 * mark, and the deliveries' unique keys drop what another worker made
 * meanwhile. Each event's deliveries and its mark commit together. Returns
 * how many events it handled.
 */
export async function enqueueNotifications(input: { db: Db; now: Date; tenantId?: string }): Promise<number> {
  const { db, now, tenantId } = input;
  const scope = (column: Prisma.Sql) => (tenantId ? Prisma.sql`AND ${column} = ${tenantId}` : Prisma.empty);
  const floor = eventIdFloor(now.getTime() - SCAN_LAG_MS);
  await db.$executeRaw`
    INSERT INTO notification_cursors (tenant_id, scan_after)
    SELECT t.id, ${floor} FROM tenants t WHERE TRUE ${scope(Prisma.sql`t.id`)}
    ON CONFLICT (tenant_id) DO NOTHING`;
  const events = await db.$queryRaw<ScannedEvent[]>`
    SELECT e.id, e.type, e.tenant_id AS "tenantId", e.request_id AS "requestId", e.data->>'actor' AS actor
    FROM notification_cursors c
    JOIN events e ON e.tenant_id = c.tenant_id AND e.id > c.scan_after
    WHERE e.type = ANY(${TYPES}) AND e.request_id IS NOT NULL ${scope(Prisma.sql`c.tenant_id`)}
      AND NOT EXISTS (SELECT 1 FROM notification_scanned_events s WHERE s.event_id = e.id)
    ORDER BY e.id
    LIMIT ${BATCH}`;
  let handled = 0;
  for (const event of events) {
    const done = await db.$transaction(async (tx) => {
      if (!(await notifyEvent(tx, event, now))) return false;
      await tx.$executeRaw`
        INSERT INTO notification_scanned_events (event_id, scanned_at) VALUES (${event.id}, ${now}) ON CONFLICT (event_id) DO NOTHING`;
      return true;
    });
    if (done) handled++;
  }
  // The cursor moves a minute at a time (one write per tenant a minute, not one per poll);
  // marks of events it has passed by more than the lag are no longer read.
  const stale = eventIdFloor(now.getTime() - SCAN_LAG_MS - 60_000);
  const moved = await db.$executeRaw`
    UPDATE notification_cursors SET scan_after = ${floor} WHERE scan_after < ${stale} ${scope(Prisma.sql`tenant_id`)}`;
  if (moved > 0) {
    await db.$executeRaw`DELETE FROM notification_scanned_events WHERE scanned_at < ${new Date(now.getTime() - 2 * SCAN_LAG_MS)}`;
  }
  return handled;
}
