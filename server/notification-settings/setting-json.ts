import "server-only";
import type { NotificationMode, PoolNotificationSettingJson } from "@/lib/notifications/settings-schemas";

interface SettingPool {
  id: string;
  name: string;
  tenantId: string;
  siteId: string;
  notifyDefault: NotificationMode;
}

/** One pool's entry: the caller's own choice where they made one, else the pool's default. */
export function toSettingJson(pool: SettingPool, mine: NotificationMode | null): PoolNotificationSettingJson {
  return {
    tenantId: pool.tenantId,
    poolId: pool.id,
    poolName: pool.name,
    siteId: pool.siteId,
    mode: mine ?? pool.notifyDefault,
    source: mine ? "mine" : "pool-default",
    poolDefault: pool.notifyDefault,
  };
}
