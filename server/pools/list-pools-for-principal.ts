import "server-only";
import { Prisma } from "../db/generated/client";
import type { Db } from "../db/client";
import type { Principal } from "../auth/principal";
import { mayDecide, PERMISSIONS_BY_ROLE } from "../auth/roles";
import { effectiveStateSql } from "../join-requests/effective-state-sql";
import type { SiteSummary } from "@/lib/pools/pool-summary";

/**
 * The pools the principal's grants cover, grouped by site, with their
 * effective pending counts (SPEC B1: pending past expiry does not count).
 */
export async function listPoolsForPrincipal(input: { db: Db; principal: Principal; now: Date }): Promise<SiteSummary[]> {
  const { db, principal, now } = input;
  const readable = principal.grants.filter((grant) => PERMISSIONS_BY_ROLE[grant.role].includes("compute:join-tokens:read"));
  if (readable.length === 0) return [];
  const pools = await db.pool.findMany({
    where: { OR: readable.map((grant) => (grant.poolId ? { tenantId: grant.tenantId, id: grant.poolId } : { tenantId: grant.tenantId })) },
    select: {
      id: true,
      name: true,
      tenantId: true,
      siteId: true,
      requiresTpm: true,
      archivedAt: true,
      site: { select: { name: true } },
      tenant: { select: { name: true } },
    },
    orderBy: [{ tenantId: "asc" }, { siteId: "asc" }, { id: "asc" }],
  });
  if (pools.length === 0) return [];

  const poolIds = pools.map((pool) => pool.id);
  const siteIds = [...new Set(pools.map((pool) => pool.siteId))];
  const counts = await db.$queryRaw<{ poolId: string | null; siteId: string; n: number }[]>`
    SELECT pool_id AS "poolId", site_id AS "siteId", count(*)::int AS n FROM join_requests
    WHERE ${effectiveStateSql("pending", now)}
      AND (pool_id IN (${Prisma.join(poolIds)}) OR (pool_id IS NULL AND site_id IN (${Prisma.join(siteIds)})))
    GROUP BY pool_id, site_id`;
  const ownByPool = new Map(counts.filter((row) => row.poolId).map((row) => [row.poolId!, row.n]));
  const unclaimedBySite = new Map(counts.filter((row) => !row.poolId).map((row) => [row.siteId, row.n]));

  const sites = new Map<string, SiteSummary>();
  for (const pool of pools) {
    const unclaimed = unclaimedBySite.get(pool.siteId) ?? 0;
    let site = sites.get(pool.siteId);
    if (!site) {
      site = {
        id: pool.siteId,
        name: pool.site.name,
        tenantId: pool.tenantId,
        tenantName: pool.tenant.name,
        unclaimedPending: unclaimed,
        pools: [],
      };
      sites.set(pool.siteId, site);
    }
    const own = ownByPool.get(pool.id) ?? 0;
    site.pools.push({
      id: pool.id,
      name: pool.name,
      tenantId: pool.tenantId,
      siteId: pool.siteId,
      archived: pool.archivedAt !== null,
      requiresTpm: pool.requiresTpm,
      canDecide: mayDecide(principal.grants, pool.tenantId, pool.id),
      pendingOwn: own,
      pendingEffective: own + unclaimed,
    });
  }
  return [...sites.values()];
}
