import "server-only";
import type { Db } from "../db/client";
import type { NotificationMode, PoolNotificationSettingJson } from "@/lib/notifications/settings-schemas";
import { toSettingJson } from "./setting-json";

/**
 * Sets what `userId` hears of one pool's requests, or (mode null) returns them
 * to the pool's default by forgetting their choice. The caller has already
 * been authorized to decide the pool. Answers the pool's entry as it now reads.
 */
export async function updateNotificationSetting(input: {
  db: Db;
  userId: string;
  pool: { id: string; tenantId: string };
  mode: NotificationMode | null;
  now: Date;
}): Promise<PoolNotificationSettingJson> {
  const { db, userId, pool, mode, now } = input;
  const where = { userId_poolId: { userId, poolId: pool.id } };
  if (mode === null) await db.notificationPreference.deleteMany({ where: where.userId_poolId });
  else
    await db.notificationPreference.upsert({
      where,
      create: { userId, poolId: pool.id, mode, updatedAt: now },
      update: { mode, updatedAt: now },
    });
  const row = await db.pool.findUniqueOrThrow({
    where: { id: pool.id },
    select: { id: true, name: true, tenantId: true, siteId: true, notifyDefault: true },
  });
  return toSettingJson(row, mode);
}
