import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freshPglite } from "@/test/harness/fresh-pglite";
import { afterAll, expect, it } from "vitest";
import { applyMigrations } from "./migrations";
import { readMigrationFolders } from "./migration-folders";
import { executorFromPglite } from "./sql-executor";

// SPEC G2's migration keeps existing rows and calls proven only those whose
// proof can still be seen: a used challenge of the same tenant, CSR and EK.
const COMMITTED_MIGRATIONS = fileURLToPath(new URL("../../prisma/migrations", import.meta.url));
const MIGRATION = "20261206111442_tpm_ek_proven";
const EK = "e".repeat(64);
const OTHER_EK = "f".repeat(64);

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The committed migrations up to (before, or including) G2's. */
async function migrationsUpTo(including: boolean): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "bc-g2-backfill-"));
  dirs.push(dir);
  for (const folder of await readMigrationFolders(COMMITTED_MIGRATIONS)) {
    if (folder.name < MIGRATION || (including && folder.name === MIGRATION)) {
      await cp(path.join(COMMITTED_MIGRATIONS, folder.name), path.join(dir, folder.name), { recursive: true });
    }
  }
  return dir;
}

// It applies the committed migrations in Wasm: past 30 s on an overloaded machine (issue 33).
const WASM = { timeout: 120_000 };

it("backfills tpm_ek_proven from used challenges only: unused, another EK, another tenant or none stay unproven", WASM, async () => {
  const pglite = await freshPglite();
  const db = executorFromPglite(pglite);
  try {
    await applyMigrations(db, { migrationsDir: await migrationsUpTo(false) });
    // csr → [ek recorded, challenge: used?, challenge's ek, challenge's tenant]
    const cases = {
      used: [EK, true, EK, "t1"],
      unused: [EK, false, EK, "t1"],
      otherEk: [EK, true, OTHER_EK, "t1"],
      otherTenant: [EK, true, EK, "t2"],
      noChallenge: [EK, null, null, null],
      noTpm: [null, true, EK, "t1"],
    } as const;
    for (const [csr, [ek, used, challengeEk, challengeTenant]] of Object.entries(cases)) {
      await db.query(
        `INSERT INTO join_requests (id, tenant_id, site_id, pool_id, state, reasons, hostname, system_uuid, serial_number,
           mac_addresses, tpm_ek_sha256, csr_sha256, created_at, expires_at)
         VALUES ($1, 't1', 's1', 'p1', 'consumed', '{}', $2, $2, 'SN', '{}', $3, $4, now(), now())`,
        [`jreq_${csr}`, `${csr}.test`, ek, csr],
      );
      await db.query(
        `INSERT INTO nodes (id, tenant_id, site_id, pool_id, hostname, hostname_key, system_uuid, uuid_key, serial_number,
           tpm_ek_sha256, csr_sha256, cert_serial, cert_not_after, created_at)
         VALUES ($1, 't1', 's1', 'p1', $2, $2, $2, $2, 'SN', $3, $4, '01', now(), now())`,
        [`node_${csr}`, `${csr}.test`, ek, csr],
      );
      if (used !== null) {
        await db.query(
          `INSERT INTO tpm_challenges (id, tenant_id, csr_sha256, ek_sha256, ak_name, secret_hash, created_at, expires_at, used_at)
           VALUES ($1, $2, $3, $4, 'aa', '\\x00', now(), now(), $5)`,
          [`tpmc_${csr}`, challengeTenant, csr, challengeEk, used ? new Date() : null],
        );
      }
    }
    await applyMigrations(db, { migrationsDir: await migrationsUpTo(true) });
    for (const table of ["join_requests", "nodes"]) {
      const { rows } = await db.query<{ csr: string; proven: boolean; ek: string | null }>(
        `SELECT csr_sha256 AS csr, tpm_ek_proven AS proven, tpm_ek_sha256 AS ek FROM ${table} ORDER BY csr_sha256`,
      );
      const proven = Object.fromEntries(rows.map((row) => [row.csr, row.proven]));
      expect(proven, table).toEqual({ used: true, unused: false, otherEk: false, otherTenant: false, noChallenge: false, noTpm: false });
      // the hashes stay as they were: legacy rows read "presented but not proven"
      expect(rows.find((row) => row.csr === "unused")?.ek, table).toBe(EK);
    }
  } finally {
    await pglite.close();
  }
});
