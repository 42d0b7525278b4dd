import "server-only";
import type { Db } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import type { PoolFacts } from "../../places/find-pool";
import { uuidKeyOf } from "./node-identity-keys";
import type { AttestationSubject, Attestor, Verdict } from "./attestor";

// The site's discovered-machine inventory knows a machine, not a MAC (SPEC
// G3): an entry matches a join only by its system UUID (any case: entries are
// stored lowercase, the join's UUID is compared as its key), and when the
// entry lists MACs, one of the reported MACs must be among them. MACs are
// visible on the network, so a MAC alone never names a machine; a placeholder
// UUID names none either.
//
// A site-enrollment-key join has no pool of its own: the machine is known
// only when its entry assigns it a pool, and the join then goes into that
// pool; otherwise it is deferred as an unclaimed site request.

export const discoveryAttestor: Attestor = {
  name: "discovery",
  async attest(db, subject): Promise<Verdict> {
    const entry = await matchingEntry(db, subject);
    if (!entry) return { defer: "unknown-to-discovery" };
    if (subject.credential === "join-token") return {};
    const pool = entry.assignedPoolId ? await assignedPool(db, subject, entry.assignedPoolId) : null;
    return pool ? { pool } : { defer: "unknown-to-discovery" };
  },
};

interface DiscoveryMatch {
  assignedPoolId: string | null;
}

async function matchingEntry(db: Db, { tenantId, siteId, machine }: AttestationSubject): Promise<DiscoveryMatch | null> {
  const uuidKey = uuidKeyOf(machine.systemUuid);
  if (!uuidKey) return null;
  const [entry] = await db.$queryRaw<DiscoveryMatch[]>(discoveryMatchSql({ tenantId, siteId, uuidKey, macs: machine.macAddresses }));
  return entry ?? null;
}

/**
 * The site's one entry for this UUID key, if it lists no MACs or one of
 * these: through the (site_id, system_uuid) key, never a scan of the
 * inventory (exported for its plan test).
 */
export function discoveryMatchSql(input: { tenantId: string; siteId: string; uuidKey: string; macs: string[] }): Prisma.Sql {
  return Prisma.sql`
    SELECT assigned_pool_id AS "assignedPoolId"
    FROM discovered_machines
    WHERE site_id = ${input.siteId} AND system_uuid = ${input.uuidKey} AND tenant_id = ${input.tenantId}
      AND ${entryMacsMatchSql(Prisma.sql`mac_addresses`, Prisma.sql`${input.macs}::text[]`)}`;
}

/** SPEC G3's MAC half: an entry listing MACs matches only a machine reporting one of them (also read by the approval rules' `discovery`). */
export function entryMacsMatchSql(entryMacs: Prisma.Sql, reportedMacs: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(coalesce(cardinality(${entryMacs}), 0) = 0 OR ${entryMacs} && ${reportedMacs})`;
}

/** The assigned pool, if it exists in the machine's tenant and site. */
async function assignedPool(db: Db, { tenantId, siteId }: AttestationSubject, poolId: string): Promise<PoolFacts | null> {
  return db.pool.findFirst({
    where: { id: poolId, tenantId, siteId },
    select: { id: true, tenantId: true, siteId: true, requiresTpm: true, requireKnownBoot: true, archivedAt: true },
  });
}
