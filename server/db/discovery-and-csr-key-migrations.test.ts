import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freshPglite } from "@/test/harness/fresh-pglite";
import { afterAll, describe, expect, it } from "vitest";
import { applyMigrations } from "./migrations";
import { readMigrationFolders } from "./migration-folders";
import { executorFromPglite } from "./sql-executor";

// The migrations of SPEC G3 (discovery UUIDs stored lowercase) and G8 (CSR
// keys per tenant) keep existing data: applied to a database that already
// holds entries and requests written before them.

const COMMITTED = fileURLToPath(new URL("../../prisma/migrations", import.meta.url));
const FIRST_NEW = "20261206112000_discovery_uuid_lowercase";
const folders = (await readMigrationFolders(COMMITTED)).map((folder) => folder.name);
const before = folders.filter((name) => name < FIRST_NEW);

const dir = await mkdtemp(path.join(tmpdir(), "bc-g3-g8-migrations-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function copyFolders(names: string[]) {
  for (const name of names) await cp(path.join(COMMITTED, name), path.join(dir, name), { recursive: true });
}

// It applies nearly every committed migration in Wasm: past 30 s on an overloaded machine (issue 33).
describe("the G3 and G8 migrations on a database with data", { timeout: 120_000 }, () => {
  it("merge case variants of one UUID per site into one lowercase entry, and replace the global CSR keys by per-tenant ones", async () => {
    const pglite = await freshPglite();
    const db = executorFromPglite(pglite);
    try {
      await copyFolders(before);
      await applyMigrations(db, { migrationsDir: dir });

      const upper = "AAAAAAAA-0000-4000-8000-00000000000A";
      await db.exec(`
        INSERT INTO tenants (id, name) VALUES ('t1', 't1');
        INSERT INTO sites (id, tenant_id, name) VALUES ('s1', 't1', 's1'), ('s2', 't1', 's2');
        INSERT INTO pools (id, tenant_id, site_id, name) VALUES ('p1', 't1', 's1', 'p1');
        INSERT INTO discovered_machines (id, tenant_id, site_id, system_uuid, mac_addresses, assigned_pool_id) VALUES
          ('d1', 't1', 's1', '${upper}', ARRAY['02:00:00:00:00:01'], 'p1'),
          ('d2', 't1', 's1', '${upper.toLowerCase()}', ARRAY['02:00:00:00:00:02'], NULL),
          ('d3', 't1', 's2', '${upper}', ARRAY['02:00:00:00:00:03'], NULL),
          ('d4', 't1', 's2', 'bbbbbbbb-0000-4000-8000-00000000000b', ARRAY['02:00:00:00:00:04'], NULL);
      `);

      await copyFolders(folders.filter((name) => name >= FIRST_NEW));
      const { applied } = await applyMigrations(db, { migrationsDir: dir });
      expect(applied).toEqual(folders.filter((name) => name >= FIRST_NEW));

      const { rows } = await db.query(
        `SELECT id, site_id AS "siteId", system_uuid AS "systemUuid", mac_addresses AS "macs", assigned_pool_id AS "poolId"
         FROM discovered_machines ORDER BY id`,
      );
      expect(rows).toEqual([
        // the lowercase variant stays, with both variants' MACs and the upper one's pool
        { id: "d2", siteId: "s1", systemUuid: upper.toLowerCase(), macs: ["02:00:00:00:00:01", "02:00:00:00:00:02"], poolId: "p1" },
        { id: "d3", siteId: "s2", systemUuid: upper.toLowerCase(), macs: ["02:00:00:00:00:03"], poolId: null },
        { id: "d4", siteId: "s2", systemUuid: "bbbbbbbb-0000-4000-8000-00000000000b", macs: ["02:00:00:00:00:04"], poolId: null },
      ]);

      const { rows: indexes } = await db.query<{ indexname: string }>(
        // the tables these two migrations change (tpm_challenges has a CSR index of its own, SPEC G4)
        `SELECT indexname FROM pg_indexes
         WHERE tablename IN ('discovered_machines', 'join_requests', 'nodes') AND (indexname LIKE '%csr%' OR tablename = 'discovered_machines')
         ORDER BY indexname`,
      );
      expect(indexes.map((index) => index.indexname)).toEqual([
        "discovered_machines_pkey",
        "discovered_machines_site_id_system_uuid_key",
        "join_requests_tenant_id_csr_sha256_id_idx",
        "join_requests_tenant_live_csr_key",
        "nodes_tenant_id_csr_sha256_key",
      ]);
    } finally {
      await pglite.close();
    }
  });
});
