import "server-only";
import type { Db } from "../db/client";
import type { Principal } from "../auth/principal";
import { DECIDE_PERMISSION, mayDecide, PERMISSIONS_BY_ROLE } from "../auth/roles";
import type { NotificationSettingsJson } from "@/lib/notifications/settings-schemas";
import { toSettingJson } from "./setting-json";

/**
 * The caller's own notification settings: one entry for each pool they may
 * decide (pool-admin there or tenant-wide, tenant-admin), with their choice
 * or the pool's default. Pools they only view, and archived pools (no new
 * request waits there), are left out. `principal` is a user (refuseServiceKeys).
 */
export async function getNotificationSettings(input: {
  db: Db;
  principal: Principal;
  mailConfigured: boolean;
}): Promise<NotificationSettingsJson> {
  const { db, principal } = input;
  const user = await db.user.findUniqueOrThrow({ where: { id: principal.id }, select: { email: true } });
  const deciding = principal.grants.filter((grant) => PERMISSIONS_BY_ROLE[grant.role].includes(DECIDE_PERMISSION));
  const pools = deciding.length
    ? await db.pool.findMany({
        where: {
          archivedAt: null,
          OR: deciding.map((grant) => (grant.poolId ? { tenantId: grant.tenantId, id: grant.poolId } : { tenantId: grant.tenantId })),
        },
        select: { id: true, name: true, tenantId: true, siteId: true, notifyDefault: true },
        orderBy: [{ tenantId: "asc" }, { siteId: "asc" }, { id: "asc" }],
      })
    : [];
  // the query narrows; the rule itself is roles.ts's, applied to each pool it found
  const decidable = pools.filter((pool) => mayDecide(principal.grants, pool.tenantId, pool.id));
  const chosen = await db.notificationPreference.findMany({
    where: { userId: principal.id, poolId: { in: decidable.map((pool) => pool.id) } },
    select: { poolId: true, mode: true },
  });
  const mine = new Map(chosen.map((preference) => [preference.poolId, preference.mode]));
  return {
    email: user.email,
    mailConfigured: input.mailConfigured,
    pools: decidable.map((pool) => toSettingJson(pool, mine.get(pool.id) ?? null)),
  };
}
