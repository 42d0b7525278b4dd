import "server-only";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { recordJoinRequestEvent } from "../events/record-event";
import { escalationKey } from "@/lib/notifications/delivery-key";

/** The actor of the `compute.join-request.escalated` events. */
export const ESCALATION_ACTOR = "system:notifications";

const BATCH = 100;

interface Overdue {
  id: string;
  tenantId: string;
  siteId: string;
  poolId: string;
  escalationEmails: string[];
}

/**
 * Escalates each request still pending (and unexpired) its pool's
 * escalateAfterMinutes after it was made, once: in one transaction, the
 * request's notification_escalations row (its key makes a second worker's
 * attempt a no-op), the `compute.join-request.escalated` event (chat
 * subscriptions filtered on it hear it) and one mail to each escalation
 * address. Returns how many it escalated.
 */
export async function escalateWaitingRequests(input: { db: Db; now: Date; tenantId?: string }): Promise<number> {
  const { db, now, tenantId } = input;
  const scope = tenantId ? Prisma.sql`AND r.tenant_id = ${tenantId}` : Prisma.empty;
  const overdue = await db.$queryRaw<Overdue[]>`
    SELECT r.id, r.tenant_id AS "tenantId", r.site_id AS "siteId", r.pool_id AS "poolId", p.escalation_emails AS "escalationEmails"
    FROM pools p
    JOIN join_requests r ON r.pool_id = p.id AND r.state = 'pending' AND r.expires_at > ${now}
    WHERE p.escalate_after_minutes IS NOT NULL
      AND r.created_at <= ${now}::timestamptz - make_interval(mins => p.escalate_after_minutes) ${scope}
      AND NOT EXISTS (SELECT 1 FROM notification_escalations x WHERE x.request_id = r.id)
    ORDER BY r.created_at
    LIMIT ${BATCH}`;
  let escalated = 0;
  for (const request of overdue) {
    const first = await db.$transaction(async (tx) => {
      const made = await tx.$executeRaw`
        INSERT INTO notification_escalations (request_id, escalated_at) VALUES (${request.id}, ${now}) ON CONFLICT (request_id) DO NOTHING`;
      if (made === 0) return false;
      await recordJoinRequestEvent(tx, { type: "compute.join-request.escalated", request, actor: ESCALATION_ACTOR, now });
      const [event] = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM events WHERE request_id = ${request.id} AND type = 'compute.join-request.escalated' ORDER BY id DESC LIMIT 1`;
      for (const email of new Set(request.escalationEmails)) {
        await tx.$executeRaw`
          INSERT INTO notification_deliveries (delivery_key, kind, tenant_id, pool_id, email, request_id, event_id, next_attempt_at, created_at)
          VALUES (${escalationKey(request.id, email)}, 'escalation', ${request.tenantId}, ${request.poolId}, ${email},
            ${request.id}, ${event?.id ?? null}, ${now}, ${now})
          ON CONFLICT (delivery_key) DO NOTHING`;
      }
      return true;
    });
    if (first) escalated++;
  }
  return escalated;
}
