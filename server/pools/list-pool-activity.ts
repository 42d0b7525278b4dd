import "server-only";
import { Prisma } from "../db/generated/client";
import type { Db } from "../db/client";
import { eventIdFloor } from "@/lib/ids";
import { PENDING_TTL_SECONDS } from "@/lib/join-requests/state-machine";
import type { JoinRequestEventType } from "@/lib/validations/events";
import type { ActivityHour } from "@/lib/pools/activity-hour";

export type { ActivityHour };

/** How far back the overview's activity chart looks, in hours. */
export const ACTIVITY_HOURS = 24;
const HOUR_MS = 3600_000;

const CREATED: JoinRequestEventType = "security.join-request.created";
const APPROVED: JoinRequestEventType = "security.join-request.approved";
const REJECTED: JoinRequestEventType = "security.join-request.rejected";

interface Row {
  kind: "pending" | "approved" | "rejected";
  hour: number;
  poolId: string | null;
  siteId: string;
  n: number;
}

/**
 * Each pool's last ACTIVITY_HOURS hours, oldest first, the current (partial)
 * hour last: one query for all `pools`, read from the events table.
 *
 * Pending over time: a request waits in a queue from its `created` event until
 * its first later event (approved, rejected or expired: every transition out
 * of pending writes one, SPEC B6) or its expiry, whichever comes first (an
 * unmarked request past expiry reads as expired, SPEC B1; while pending its
 * expiry is the one its `created` event carries). An hour's pending count is
 * the requests waiting at the hour's end. A pool's queue also shows its site's
 * unclaimed requests, so they count in every pool of the site, like the
 * overview's pending count; the current hour's value is that count.
 * Decisions are the approved and rejected events naming the pool.
 */
export async function listPoolActivity(input: {
  db: Db;
  pools: { id: string; tenantId: string; siteId: string }[];
  now: Date;
}): Promise<Map<string, ActivityHour[]>> {
  const { db, pools, now } = input;
  if (pools.length === 0) return new Map();
  const windowStart = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - (ACTIVITY_HOURS - 1) * HOUR_MS);
  const poolIds = pools.map((pool) => pool.id);
  const siteIds = [...new Set(pools.map((pool) => pool.siteId))];
  const tenantIds = [...new Set(pools.map((pool) => pool.tenantId))];
  // Event ids start with their time (the recorders make them from occurredAt;
  // never earlier, as ids are monotonic), so the (pool_id, id), (tenant_id, id)
  // and (request_id, id) indexes read only the window; occurred_at decides. A request waiting at the window's start was created at
  // most one pending TTL before it. `waits` is materialized so that each
  // request's end is looked up once, not once per hour.
  const createdSince = eventIdFloor(windowStart.getTime() - PENDING_TTL_SECONDS * 1000);
  const decidedSince = eventIdFloor(windowStart.getTime());
  const rows = await db.$queryRaw<Row[]>`
    WITH hours AS (
      SELECT n AS hour, LEAST(${windowStart}::timestamptz + (n + 1) * interval '1 hour', ${now}::timestamptz) AS hour_end
      FROM generate_series(0, ${ACTIVITY_HOURS - 1}::int) AS n
    ),
    waits AS MATERIALIZED (
      SELECT c.pool_id, c.site_id, c.occurred_at AS since,
        LEAST((c.data->>'expiresAt')::timestamptz,
          (SELECT min(d.occurred_at) FROM events d WHERE d.request_id = c.request_id AND d.id > c.id)) AS until
      FROM events c
      WHERE c.type = ${CREATED} AND c.id >= ${createdSince}
        AND (c.pool_id IN (${Prisma.join(poolIds)}) OR (c.pool_id IS NULL AND c.tenant_id IN (${Prisma.join(tenantIds)}) AND c.site_id IN (${Prisma.join(siteIds)})))
    )
    SELECT 'pending' AS kind, h.hour, w.pool_id AS "poolId", w.site_id AS "siteId", count(*)::int AS n
    FROM hours h JOIN waits w ON w.since <= h.hour_end AND w.until > h.hour_end
    GROUP BY h.hour, w.pool_id, w.site_id
    UNION ALL
    -- the hour's index from the window's start (a whole UTC hour), rather than
    -- date_trunc, which would follow the session's time zone
    SELECT CASE WHEN e.type = ${APPROVED} THEN 'approved' ELSE 'rejected' END, hour.n, e.pool_id, e.site_id, count(*)::int
    FROM events e, LATERAL (SELECT floor(extract(epoch FROM e.occurred_at - ${windowStart}::timestamptz) / 3600)::int AS n) hour
    WHERE e.type IN (${APPROVED}, ${REJECTED}) AND e.id >= ${decidedSince}
      AND e.occurred_at >= ${windowStart} AND e.occurred_at <= ${now} AND e.pool_id IN (${Prisma.join(poolIds)})
    GROUP BY 1, 2, 3, 4`;

  const activity = new Map<string, ActivityHour[]>();
  for (const pool of pools) {
    activity.set(
      pool.id,
      Array.from({ length: ACTIVITY_HOURS }, (_, hour) => ({
        start: new Date(windowStart.getTime() + hour * HOUR_MS),
        pending: 0,
        approved: 0,
        rejected: 0,
      })),
    );
  }
  for (const row of rows) {
    // an unclaimed request waits in every pool of its site
    const owners = row.poolId ? [row.poolId] : pools.filter((pool) => pool.siteId === row.siteId).map((pool) => pool.id);
    for (const poolId of owners) activity.get(poolId)![row.hour]![row.kind] += row.n;
  }
  return activity;
}
