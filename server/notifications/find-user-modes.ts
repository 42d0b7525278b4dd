import "server-only";
import type { Db, Tx } from "../db/client";
import type { Decider } from "./find-pool-deciders";

/** The mode of each of `userIds` for `poolId` (their preference, else the pool's default); disabled users left out. */
export async function findUserModes(db: Db | Tx, input: { poolId: string; userIds: string[] }): Promise<(Decider & { name: string })[]> {
  if (input.userIds.length === 0) return [];
  return db.$queryRaw<(Decider & { name: string })[]>`
    SELECT u.id AS "userId", u.email, u.name, COALESCE(np.mode, p.notify_default) AS mode
    FROM users u
    JOIN pools p ON p.id = ${input.poolId}
    LEFT JOIN notification_preferences np ON np.user_id = u.id AND np.pool_id = p.id
    WHERE u.id = ANY(${input.userIds}) AND u.disabled_at IS NULL`;
}
