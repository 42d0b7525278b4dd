import "server-only";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import type { PoolFacts } from "../pools/find-pool";
import type { AttestationSubject, Attestor, Verdict } from "./attestor";
import { isPlaceholderHardwareId } from "./hardware";

// The site's discovered-machine inventory knows a machine when its system
// UUID or any of its MACs matches an entry (SPEC B5). A placeholder UUID is
// no identity, so it matches nothing; the MACs still may.
//
// A site-enrollment-key join has no pool of its own: the machine is known
// only when its entry assigns it a pool, and the join then goes into that
// pool; otherwise it is deferred as an unclaimed site request.

export const discoveryAttestor: Attestor = {
  name: "discovery",
  async attest(db, subject): Promise<Verdict> {
    const entries = await matchingEntries(db, subject);
    if (subject.credential === "join-token") return entries.length > 0 ? {} : { defer: "unknown-to-discovery" };

    for (const entry of entries) {
      const pool = entry.assignedPoolId ? await assignedPool(db, subject, entry.assignedPoolId) : null;
      if (pool) return { pool };
    }
    return { defer: "unknown-to-discovery" };
  },
};

/** Entries matching the UUID first, then those matching a MAC. */
async function matchingEntries(db: Db, { tenantId, siteId, machine }: AttestationSubject) {
  // Firmware prints UUIDs in either case; inventories store them as found.
  const uuid = machine.systemUuid.trim();
  const spellings = isPlaceholderHardwareId(uuid) ? [] : [...new Set([uuid, uuid.toLowerCase(), uuid.toUpperCase()])];
  if (spellings.length + machine.macAddresses.length === 0) return [];
  const entries = await db.$queryRaw<DiscoveryMatch[]>(
    discoveryMatchSql({ tenantId, siteId, uuids: spellings, macs: machine.macAddresses }),
  );
  const matchesUuid = (entry: DiscoveryMatch) => Number(spellings.includes(entry.systemUuid));
  return entries.sort((a, b) => matchesUuid(b) - matchesUuid(a));
}

interface DiscoveryMatch {
  systemUuid: string;
  assignedPoolId: string | null;
}

/**
 * A site's inventory entries with one of these UUIDs or sharing a MAC, in id
 * order: through the (site_id, system_uuid) key and the GIN index on
 * mac_addresses, never a scan of the inventory (exported for its plan test).
 */
export function discoveryMatchSql(input: { tenantId: string; siteId: string; uuids: string[]; macs: string[] }): Prisma.Sql {
  return Prisma.sql`
    SELECT system_uuid AS "systemUuid", assigned_pool_id AS "assignedPoolId"
    FROM discovered_machines
    WHERE tenant_id = ${input.tenantId} AND site_id = ${input.siteId}
      AND (system_uuid = ANY(${input.uuids}::text[]) OR mac_addresses && ${input.macs}::text[])
    ORDER BY id`;
}

/** The assigned pool, if it exists in the machine's tenant and site. */
async function assignedPool(db: Db, { tenantId, siteId }: AttestationSubject, poolId: string): Promise<PoolFacts | null> {
  return db.pool.findFirst({
    where: { id: poolId, tenantId, siteId },
    select: { id: true, tenantId: true, siteId: true, requiresTpm: true, archivedAt: true },
  });
}
