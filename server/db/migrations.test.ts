import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { applyMigrations, MIGRATE_LOCK_KEY } from "./migrations";
import { readMigrationFolders } from "./migration-folders";
import { executorFromPgClient, executorFromPglite, type SqlExecutor } from "./sql-executor";

const COMMITTED_MIGRATIONS = fileURLToPath(new URL("../../prisma/migrations", import.meta.url));
const INIT = "20261202000000_init";
// Every committed migration, in order: a fresh database gets them all.
const COMMITTED = await readMigrationFolders(COMMITTED_MIGRATIONS);
const ALL = COMMITTED.map((folder) => folder.name);

const tempDirs: string[] = [];
afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "bc-migrations-"));
  tempDirs.push(dir);
  return dir;
}

/** A migrations directory made of `{ name: sql }`. */
async function migrationsDir(migrations: Record<string, string>): Promise<string> {
  const dir = await tempDir();
  for (const [name, sql] of Object.entries(migrations)) {
    await mkdir(path.join(dir, name));
    await writeFile(path.join(dir, name, "migration.sql"), sql);
  }
  return dir;
}

async function freshPglite(): Promise<{ pglite: PGlite; db: SqlExecutor }> {
  const pglite = await PGlite.create();
  return { pglite, db: executorFromPglite(pglite) };
}

async function tableNames(db: SqlExecutor): Promise<string[]> {
  const { rows } = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`,
  );
  return rows.map((row) => row.table_name);
}

interface HistoryRow {
  migration_name: string;
  checksum: string;
  finished: boolean;
  applied_steps_count: number;
}

async function history(db: SqlExecutor): Promise<HistoryRow[]> {
  const { rows } = await db.query<HistoryRow>(
    `SELECT migration_name, checksum, finished_at IS NOT NULL AS finished, applied_steps_count
     FROM "_prisma_migrations" ORDER BY started_at`,
  );
  return rows;
}

describe("applyMigrations on a fresh PGlite", () => {
  it("applies the committed migrations once, recorded as Prisma records them", async () => {
    const { pglite, db } = await freshPglite();
    try {
      expect(ALL[0]).toBe(INIT);
      expect(await applyMigrations(db, { migrationsDir: COMMITTED_MIGRATIONS })).toEqual({ applied: ALL });

      expect(await tableNames(db)).toEqual(
        expect.arrayContaining(["_prisma_migrations", "join_requests", "events", "join_tokens", "role_grants", "nodes"]),
      );

      const { rows: indexes } = await db.query<{ indexname: string; indexdef: string }>(
        `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'join_requests' AND indexdef LIKE '%WHERE%'
         ORDER BY indexname`,
      );
      expect(indexes).toEqual([
        {
          indexname: "join_requests_live_csr_key",
          indexdef: expect.stringMatching(/UNIQUE INDEX .*\(csr_sha256\) WHERE \(state = ANY \(ARRAY\['pending'::join_request_state, 'approved'::join_request_state\]\)\)$/),
        },
        {
          indexname: "join_requests_live_idx",
          indexdef: expect.stringMatching(/\(pool_id, state, expires_at\) WHERE \(state = ANY \(ARRAY\['pending'::join_request_state, 'approved'::join_request_state\]\)\)$/),
        },
        { indexname: "join_requests_unclaimed_id_idx", indexdef: expect.stringMatching(/\(site_id, id\) WHERE \(pool_id IS NULL\)$/) },
        {
          indexname: "join_requests_unclaimed_live_idx",
          indexdef: expect.stringMatching(
            /\(site_id, state, expires_at\) WHERE \(\(pool_id IS NULL\) AND \(state = ANY \(ARRAY\['pending'::join_request_state, 'approved'::join_request_state\]\)\)\)$/,
          ),
        },
        {
          indexname: "join_requests_unclaimed_state_id_idx",
          indexdef: expect.stringMatching(/\(site_id, state, id\) WHERE \(pool_id IS NULL\)$/),
        },
      ]);

      const { rows: checks } = await db.query<{ conname: string }>(
        `SELECT conname FROM pg_constraint WHERE contype = 'c' AND conrelid IN ('role_grants'::regclass, 'join_tokens'::regclass)
         ORDER BY conname`,
      );
      expect(checks.map((row) => row.conname)).toEqual(["join_tokens_uses_within_max", "role_grants_one_principal", "role_grants_tenant_admin_tenant_wide"]);

      const expectedHistory = await Promise.all(
        ALL.map(async (name) => ({
          migration_name: name,
          checksum: createHash("sha256").update(await readFile(path.join(COMMITTED_MIGRATIONS, name, "migration.sql"))).digest("hex"),
          finished: true,
          applied_steps_count: 1,
        })),
      );
      expect(await history(db)).toEqual(expectedHistory);

      expect(await applyMigrations(db, { migrationsDir: COMMITTED_MIGRATIONS })).toEqual({ applied: [] });
      expect(await history(db)).toHaveLength(ALL.length);
    } finally {
      await pglite.close();
    }
  });

  it("refuses a migration whose file changed after it was applied, naming it", async () => {
    const dir = await tempDir();
    await cp(COMMITTED_MIGRATIONS, dir, { recursive: true });
    const { pglite, db } = await freshPglite();
    try {
      await applyMigrations(db, { migrationsDir: dir });
      await writeFile(path.join(dir, INIT, "migration.sql"), "-- edited afterwards\n", { flag: "a" });

      await expect(applyMigrations(db, { migrationsDir: dir })).rejects.toThrow(
        new RegExp(`Migration "${INIT}" was changed after it was applied`),
      );
    } finally {
      await pglite.close();
    }
  });

  it("still accepts a file whose line endings git converted", async () => {
    const dir = await migrationsDir({ "0001_a": "CREATE TABLE a (id int);\nCREATE TABLE b (id int);\n" });
    const { pglite, db } = await freshPglite();
    try {
      await applyMigrations(db, { migrationsDir: dir });
      await writeFile(path.join(dir, "0001_a", "migration.sql"), "CREATE TABLE a (id int);\r\nCREATE TABLE b (id int);\r\n");
      expect(await applyMigrations(db, { migrationsDir: dir })).toEqual({ applied: [] });
    } finally {
      await pglite.close();
    }
  });

  it("rolls a failing migration back whole, records nothing for it, and retries it next time", async () => {
    const dir = await migrationsDir({
      "0001_ok": "CREATE TABLE first_table (id int);",
      "0002_broken": "CREATE TABLE half_applied (id int);\nALTER TABLE missing_table ADD COLUMN x int;",
    });
    const { pglite, db } = await freshPglite();
    try {
      await expect(applyMigrations(db, { migrationsDir: dir })).rejects.toThrow(
        /Migration "0002_broken" failed and was rolled back: .*missing_table/,
      );
      expect(await tableNames(db)).toEqual(["_prisma_migrations", "first_table"]);
      expect((await history(db)).map((row) => [row.migration_name, row.finished])).toEqual([["0001_ok", true]]);

      await writeFile(path.join(dir, "0002_broken", "migration.sql"), "CREATE TABLE half_applied (id int);");
      expect(await applyMigrations(db, { migrationsDir: dir })).toEqual({ applied: ["0002_broken"] });
    } finally {
      await pglite.close();
    }
  });

  it("refuses to go on after a migration that was started but not finished", async () => {
    const dir = await migrationsDir({ "0001_ok": "CREATE TABLE first_table (id int);" });
    const { pglite, db } = await freshPglite();
    try {
      await applyMigrations(db, { migrationsDir: dir });
      // What a failed `prisma migrate deploy` leaves behind.
      await db.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name) VALUES ('00000000-0000-4000-8000-000000000000', 'x', '0002_failed_elsewhere')`,
      );
      await expect(applyMigrations(db, { migrationsDir: dir })).rejects.toThrow(
        /Migration "0002_failed_elsewhere" was started but never finished/,
      );
    } finally {
      await pglite.close();
    }
  });

  it("queues two runs on one session instead of letting both apply", async () => {
    const { pglite, db } = await freshPglite();
    try {
      const runs = await Promise.all([
        applyMigrations(db, { migrationsDir: COMMITTED_MIGRATIONS }),
        applyMigrations(db, { migrationsDir: COMMITTED_MIGRATIONS }),
      ]);
      expect(runs.map((run) => run.applied)).toEqual([ALL, []]);
    } finally {
      await pglite.close();
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)("applyMigrations on real PostgreSQL", () => {
  it("applies once when two instances migrate one database at the same time", async () => {
    // A scratch schema of the test database: nothing of the shared one is touched.
    const schema = `migrations_test_${process.pid}_${Date.now()}`;
    const connect = async () => {
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      return client;
    };
    const admin = await connect();
    const instances = [await connect(), await connect()];
    try {
      await admin.query(`CREATE SCHEMA "${schema}"`);
      for (const client of instances) await client.query(`SET search_path TO "${schema}"`);

      // Hold the migration lock so that both instances are surely waiting on it at once.
      await admin.query("SELECT pg_advisory_lock($1)", [MIGRATE_LOCK_KEY]);
      const logs: string[][] = [[], []];
      const runs = Promise.all(
        instances.map((client, i) =>
          applyMigrations(executorFromPgClient(client), {
            migrationsDir: COMMITTED_MIGRATIONS,
            log: (line) => logs[i]?.push(line),
          }),
        ),
      );
      runs.catch(() => {}); // reported by the await below, not as an unhandled rejection meanwhile
      await expect.poll(() => waitingForLock(admin), { timeout: 10_000 }).toBe(2);
      await admin.query("SELECT pg_advisory_unlock($1)", [MIGRATE_LOCK_KEY]);

      const applied = (await runs).map((run) => run.applied);
      expect(applied.flat()).toEqual(ALL);
      expect(logs.flat().filter((line) => line.includes("waiting"))).toHaveLength(2);
      const { rows } = await admin.query<{ migration_name: string }>(
        `SELECT migration_name FROM "${schema}"."_prisma_migrations" ORDER BY migration_name`,
      );
      expect(rows).toEqual(ALL.map((migration_name) => ({ migration_name })));
    } finally {
      await Promise.all(instances.map((client) => client.end()));
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  });
});

async function waitingForLock(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ waiting: number }>(
    `SELECT count(*)::int AS waiting FROM pg_locks
     WHERE locktype = 'advisory' AND NOT granted AND objid = $1 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [MIGRATE_LOCK_KEY],
  );
  return rows[0]?.waiting ?? 0;
}
