import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@/server/db/generated/client";
import { activeNodeWithHostnameSql, activeNodeWithUuidSql } from "@/server/nodes/replace-machine-nodes";
import { createScratchDatabase, scratchTenant, type ScratchDatabase } from "@/test/api/scratch-database";

// Every admission asks whether an active node already holds the machine's
// UUID or its hostname (SPEC F3, G7). In a tenant of 100,000 nodes that must
// be an index lookup: written as Prisma's enum comparison it was a parallel
// scan of the whole table on every join (the benchmark's boot storm). A
// database of its own, so ANALYZE sees only these rows.
const NODES = 5_000;

let scratch: ScratchDatabase;
let tenantId: string;

beforeAll(async () => {
  scratch = await createScratchDatabase();
  const ids = await scratchTenant(scratch.db);
  tenantId = ids.tenantId;
  await scratch.db.$executeRawUnsafe(
    `INSERT INTO nodes (id, tenant_id, site_id, pool_id, hostname, hostname_key, system_uuid, uuid_key, serial_number,
       csr_sha256, cert_serial, cert_not_after)
     SELECT 'node_' || lpad(g::text, 26, '0'), $1, $2, $3, 'host-' || g, 'host-' || g, 'uuid-' || g, 'uuid-' || g, 'SN',
       md5(g::text) || md5(g::text), md5(g::text), now() + interval '30 days'
     FROM generate_series(1, $4::int) g`,
    ids.tenantId,
    ids.siteId,
    ids.poolId,
    NODES,
  );
  await scratch.db.$executeRawUnsafe("ANALYZE nodes");
}, 120_000);

afterAll(async () => {
  await scratch?.drop();
});

async function planOf(sql: Prisma.Sql): Promise<string> {
  const rows = await scratch.db.$queryRaw<{ "QUERY PLAN": string }[]>(Prisma.sql`EXPLAIN ${sql}`);
  return rows.map((row) => row["QUERY PLAN"]).join("\n");
}

describe("the admission's machine identity lookups on PostgreSQL", () => {
  it("find an active node by UUID through nodes_active_uuid_key", async () => {
    expect(await planOf(activeNodeWithUuidSql(tenantId, "uuid-42"))).toMatch(/Index (Only )?Scan using nodes_active_uuid_key/);
    const [holder] = await scratch.db.$queryRaw<{ id: string }[]>(activeNodeWithUuidSql(tenantId, "uuid-42"));
    expect(holder?.id).toBe(`node_${"42".padStart(26, "0")}`);
  });

  it("find an active node by hostname through nodes_active_hostname_key, the machine's own node aside", async () => {
    expect(await planOf(activeNodeWithHostnameSql(tenantId, "host-7", "uuid-8"))).toMatch(/Index Scan using nodes_active_hostname_key/);
    expect(await scratch.db.$queryRaw(activeNodeWithHostnameSql(tenantId, "host-7", "uuid-8"))).toHaveLength(1);
    expect(await scratch.db.$queryRaw(activeNodeWithHostnameSql(tenantId, "host-7", "uuid-7"))).toHaveLength(0);
  });
});
