import "server-only";
import { Prisma, type NotificationKind } from "../db/generated/client";
import type { Db } from "../db/client";

export interface ClaimedNotification {
  id: bigint;
  kind: NotificationKind;
  tenantId: string;
  userId: string | null;
  email: string;
  requestId: string | null;
  eventId: string | null;
  /** attempts including the one this claim is for */
  attempts: number;
  createdAt: Date;
  /** what it is and to whom (lib/notifications/delivery-key.ts); a digest's names its window */
  deliveryKey: string;
}

/**
 * Claims up to `limit` due notifications for one attempt each, as the webhook
 * worker claims its deliveries: locked with SKIP LOCKED (concurrent workers
 * never claim the same one, and a digest an enqueuer is adding to is skipped
 * until it commits) and leased by pushing next_attempt_at to `leaseUntil`, so
 * one whose worker died is claimable again when the lease ends.
 */
export async function claimNotifications(input: {
  db: Db;
  now: Date;
  leaseUntil: Date;
  limit: number;
  tenantId?: string;
}): Promise<ClaimedNotification[]> {
  const { db, now, leaseUntil, limit, tenantId } = input;
  if (limit <= 0) return [];
  const scope = tenantId ? Prisma.sql`AND d.tenant_id = ${tenantId}` : Prisma.empty;
  return db.$queryRaw<ClaimedNotification[]>`
    WITH due AS (
      SELECT d.id FROM notification_deliveries d
      WHERE d.status = 'pending' AND d.next_attempt_at <= ${now} ${scope}
      ORDER BY d.next_attempt_at, d.id
      LIMIT ${limit}
      FOR UPDATE OF d SKIP LOCKED)
    UPDATE notification_deliveries d SET next_attempt_at = ${leaseUntil}, attempts = d.attempts + 1
    FROM due WHERE d.id = due.id
    RETURNING d.id, d.kind, d.tenant_id AS "tenantId", d.user_id AS "userId", d.email, d.request_id AS "requestId",
      d.event_id AS "eventId", d.attempts, d.created_at AS "createdAt", d.delivery_key AS "deliveryKey"`;
}
