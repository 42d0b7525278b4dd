import "server-only";
import { Prisma } from "../db/generated/client";
import type { Db } from "../db/client";

export interface ClaimedDelivery {
  id: bigint;
  subscriptionId: string;
  eventId: string;
  /** attempts including the one this claim is for */
  attempts: number;
  createdAt: Date;
}

/**
 * Claims up to `limit` due deliveries for one attempt each: rows locked with
 * SKIP LOCKED (so concurrent workers never claim the same one) and leased by
 * pushing next_attempt_at to `leaseUntil` — a worker that dies mid-attempt
 * leaves the delivery claimable again when the lease ends (at least once).
 * A delivery waits while an earlier event of the same join request is still
 * pending for its subscription (delivered or dead lets it go): in order per
 * request.
 */
export async function claimDeliveries(input: {
  db: Db;
  now: Date;
  leaseUntil: Date;
  limit: number;
  tenantId?: string;
}): Promise<ClaimedDelivery[]> {
  const { db, now, leaseUntil, limit, tenantId } = input;
  if (limit <= 0) return [];
  const scope = tenantId
    ? Prisma.sql`AND d.subscription_id IN (SELECT id FROM webhook_subscriptions WHERE tenant_id = ${tenantId})`
    : Prisma.empty;
  return db.$queryRaw<ClaimedDelivery[]>`
    WITH due AS (
      SELECT d.id FROM webhook_deliveries d
      WHERE d.status = 'pending' AND d.next_attempt_at <= ${now} ${scope}
        AND NOT EXISTS (
          SELECT 1 FROM webhook_deliveries p
          WHERE p.subscription_id = d.subscription_id AND p.request_id = d.request_id
            AND p.status = 'pending' AND p.event_id < d.event_id)
      ORDER BY d.next_attempt_at, d.id
      LIMIT ${limit}
      FOR UPDATE OF d SKIP LOCKED)
    UPDATE webhook_deliveries d SET next_attempt_at = ${leaseUntil}, attempts = d.attempts + 1
    FROM due WHERE d.id = due.id
    RETURNING d.id, d.subscription_id AS "subscriptionId", d.event_id AS "eventId", d.attempts, d.created_at AS "createdAt"`;
}
