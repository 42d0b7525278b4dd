import "server-only";
import { Prisma } from "../db/generated/client";
import type { Db } from "../db/client";
import { eventIdFloor } from "@/lib/ids";

/**
 * How far behind the clock a subscription's scan cursor trails. Event ids are
 * ULIDs from the writing instance's clock, made just before their transaction
 * commits (Prisma ends a transaction after 5 s), so an event can become
 * visible with an id a little older than events already seen. Scanning the
 * last 10 minutes again each time, and letting the delivery table's unique key
 * drop what is already there, misses none unless an instance's clock is more
 * than 10 minutes off.
 */
export const SCAN_LAG_MS = 10 * 60_000;

/**
 * Considers the events no delivery exists for yet: one pending delivery per
 * (subscription, matching event), due now. Any number of workers may run it at
 * once (ON CONFLICT DO NOTHING). Returns how many deliveries it made.
 */
export async function enqueueDeliveries(input: { db: Db; now: Date; tenantId?: string }): Promise<number> {
  const { db, now, tenantId } = input;
  const scope = tenantId ? Prisma.sql`AND s.tenant_id = ${tenantId}` : Prisma.empty;
  const made = await db.$executeRaw`
    INSERT INTO webhook_deliveries (subscription_id, event_id, request_id, next_attempt_at, created_at)
    SELECT s.id, e.id, e.request_id, ${now}, ${now}
    FROM webhook_subscriptions s
    JOIN events e ON e.tenant_id = s.tenant_id AND e.id > s.scan_after
    WHERE (COALESCE(cardinality(s.event_types), 0) = 0 OR e.type = ANY(s.event_types)) ${scope}
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.event_id = e.id)
    ON CONFLICT (subscription_id, event_id) DO NOTHING`;
  // The cursor moves a minute at a time: one write per subscription a minute, not one per poll.
  const floor = eventIdFloor(now.getTime() - SCAN_LAG_MS);
  const stale = eventIdFloor(now.getTime() - SCAN_LAG_MS - 60_000);
  await db.$executeRaw`UPDATE webhook_subscriptions s SET scan_after = ${floor} WHERE s.scan_after < ${stale} ${scope}`;
  return made;
}
