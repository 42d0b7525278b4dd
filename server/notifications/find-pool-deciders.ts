import "server-only";
import type { Db, Tx } from "../db/client";
import type { NotificationMode } from "../db/generated/client";
import { mayDecide, type Role } from "../auth/roles";

export interface Decider {
  userId: string;
  email: string;
  /** their preference for the pool, else the pool's notifyDefault */
  mode: NotificationMode;
}

/**
 * The users who may decide `poolId` (server/auth/roles.ts's rule, over their
 * grants), not disabled, each with how often they hear of its requests.
 * Service keys are never told: they have no address, and webhooks serve them.
 */
export async function findPoolDeciders(db: Db | Tx, input: { tenantId: string; poolId: string }): Promise<Decider[]> {
  const { tenantId, poolId } = input;
  const rows = await db.$queryRaw<{ userId: string; email: string; role: Role; grantPoolId: string | null; mode: NotificationMode }[]>`
    SELECT u.id AS "userId", u.email, g.role, g.pool_id AS "grantPoolId", COALESCE(np.mode, p.notify_default) AS mode
    FROM role_grants g
    JOIN users u ON u.id = g.user_id AND u.disabled_at IS NULL
    JOIN pools p ON p.id = ${poolId}
    LEFT JOIN notification_preferences np ON np.user_id = u.id AND np.pool_id = p.id
    WHERE g.tenant_id = ${tenantId} AND (g.pool_id IS NULL OR g.pool_id = ${poolId})`;
  const byUser = new Map<string, { decider: Decider; grants: { tenantId: string; poolId: string | null; role: Role }[] }>();
  for (const row of rows) {
    const entry = byUser.get(row.userId) ?? { decider: { userId: row.userId, email: row.email, mode: row.mode }, grants: [] };
    entry.grants.push({ tenantId, poolId: row.grantPoolId, role: row.role });
    byUser.set(row.userId, entry);
  }
  return [...byUser.values()].filter((entry) => mayDecide(entry.grants, tenantId, poolId)).map((entry) => entry.decider);
}
