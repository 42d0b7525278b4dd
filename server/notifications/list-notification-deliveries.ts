import "server-only";
import type { Db } from "../db/client";
import type { DeliveryLogEntry, DeliveryStatus } from "@/lib/notifications/delivery-log";

export interface DeliveryLogFilter {
  /** a tenant's whole log (the operator's view) */
  tenantId?: string;
  /** one user's mails (what the console shows the user) */
  userId?: string;
  /** the mails to one address, in any case */
  email?: string;
  status?: DeliveryStatus;
  /** newest first; at most this many */
  limit: number;
  /** the id of the last entry of the previous page */
  before?: bigint;
}

/**
 * The notification delivery log (issue #39), newest first: each mail made for
 * a tenant or a user, its status, attempts and last error. Read by the
 * console's settings page (the user's own mails) and `npm run admin --
 * notifications deliveries` (a tenant's, for an operator finding out why mail
 * does not arrive). The (tenant_id, id) and (user_id, id) indexes serve it.
 */
export async function listNotificationDeliveries(db: Db, filter: DeliveryLogFilter): Promise<DeliveryLogEntry[]> {
  const rows = await db.notificationDelivery.findMany({
    where: {
      ...(filter.tenantId !== undefined ? { tenantId: filter.tenantId } : {}),
      ...(filter.userId !== undefined ? { userId: filter.userId } : {}),
      ...(filter.email !== undefined ? { email: { equals: filter.email, mode: "insensitive" as const } } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.before !== undefined ? { id: { lt: filter.before } } : {}),
    },
    orderBy: { id: "desc" },
    take: filter.limit,
    include: { _count: { select: { digestItems: true } } },
  });
  return rows.map((row) => ({
    id: row.id.toString(),
    kind: row.kind,
    tenantId: row.tenantId,
    poolId: row.poolId,
    email: row.email,
    requestId: row.requestId,
    digestRequests: row._count.digestItems,
    status: row.status,
    attempts: row.attempts,
    createdAt: row.createdAt,
    nextAttemptAt: row.nextAttemptAt,
    lastAttemptAt: row.lastAttemptAt,
    sentAt: row.sentAt,
    lastError: row.lastError,
  }));
}
