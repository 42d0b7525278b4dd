import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { freshPglite as emptyPglite } from "@/test/harness/fresh-pglite";
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
// Some tests apply every committed migration (in Wasm, for PGlite): past the
// default 30 s only on an overloaded machine (issue 33). Their time is not
// what they check, so they get room.
const ALL_MIGRATIONS = { timeout: 120_000 };

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
  const pglite = await emptyPglite();
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

describe("applyMigrations on a fresh PGlite", ALL_MIGRATIONS, () => {
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
          indexname: "join_requests_live_idx",
          indexdef: expect.stringMatching(
            /\(pool_id, state, expires_at\) WHERE \(state = ANY \(ARRAY\['pending'::join_request_state, 'approved'::join_request_state\]\)\)$/,
          ),
        },
        {
          // SPEC H2: the rules sweep's pending requests whose rules have not run
          indexname: "join_requests_rules_unevaluated_idx",
          indexdef: expect.stringMatching(
            /\(created_at\) WHERE \(\(rules_evaluated_at IS NULL\) AND \(state = 'pending'::join_request_state\)\)$/,
          ),
        },
        {
          // SPEC G8: one live request per CSR in a tenant
          indexname: "join_requests_tenant_live_csr_key",
          indexdef: expect.stringMatching(
            /UNIQUE INDEX .*\(tenant_id, csr_sha256\) WHERE \(state = ANY \(ARRAY\['pending'::join_request_state, 'approved'::join_request_state\]\)\)$/,
          ),
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
        `SELECT conname FROM pg_constraint WHERE contype = 'c' AND conrelid IN ('role_grants'::regclass, 'join_tokens'::regclass, 'nodes'::regclass)
         ORDER BY conname`,
      );
      expect(checks.map((row) => row.conname)).toEqual([
        "join_tokens_uses_within_max",
        "nodes_revoked_has_time",
        "role_grants_one_principal",
        "role_grants_tenant_admin_tenant_wide",
      ]);

      const expectedHistory = await Promise.all(
        ALL.map(async (name) => ({
          migration_name: name,
          checksum: createHash("sha256")
            .update(await readFile(path.join(COMMITTED_MIGRATIONS, name, "migration.sql")))
            .digest("hex"),
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

// A no-transaction migration as docs/migrations.md recommends writing one: re-runnable.
const CONCURRENT_INDEX_MIGRATION = `-- bc:no-transaction
DROP INDEX CONCURRENTLY IF EXISTS items_value_key;
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS items_value_key
  ON items (value);
`;

interface AttemptRow {
  migration_name: string;
  finished: boolean;
  rolled_back: boolean;
  logs: string | null;
  applied_steps_count: number;
}

async function attempts(db: SqlExecutor): Promise<AttemptRow[]> {
  const { rows } = await db.query<AttemptRow>(
    `SELECT migration_name, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back, logs,
            applied_steps_count
     FROM "_prisma_migrations" ORDER BY started_at, migration_name`,
  );
  return rows;
}

async function indexValidity(db: SqlExecutor): Promise<Record<string, boolean>> {
  const { rows } = await db.query<{ name: string; valid: boolean }>(
    `SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE c.relnamespace = current_schema()::regnamespace AND c.relname NOT LIKE '%pkey'`,
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.valid]));
}

describe("no-transaction migrations on PGlite", () => {
  it("applies CREATE INDEX CONCURRENTLY statement by statement (PGlite supports it) and records the row", async () => {
    const dir = await migrationsDir({
      "0001_items": "CREATE TABLE items (id int PRIMARY KEY, value int);\nINSERT INTO items VALUES (1, 1), (2, 2);",
      "0002_items_value_key": CONCURRENT_INDEX_MIGRATION,
    });
    const { pglite, db } = await freshPglite();
    try {
      expect(await applyMigrations(db, { migrationsDir: dir })).toEqual({ applied: ["0001_items", "0002_items_value_key"] });
      expect(await indexValidity(db)).toEqual({ items_value_key: true });
      expect((await attempts(db)).at(-1)).toEqual({
        migration_name: "0002_items_value_key",
        finished: true,
        rolled_back: false,
        logs: null,
        applied_steps_count: 1,
      });
    } finally {
      await pglite.close();
    }
  });

  it("re-runs a failed one with its fixed file, recording the new checksum", async () => {
    const dir = await migrationsDir({
      "0001_items": "CREATE TABLE items (id int PRIMARY KEY, value int);",
      "0002_broken": "-- bc:no-transaction\nCREATE INDEX CONCURRENTLY IF NOT EXISTS items_value_idx ON items (valeu);",
    });
    const { pglite, db } = await freshPglite();
    try {
      await expect(applyMigrations(db, { migrationsDir: dir })).rejects.toThrow(
        /Migration "0002_broken" \(no transaction\) failed: statement 1 of 1 \(line 2\) failed: .*valeu/,
      );
      const fixed = "-- bc:no-transaction\nCREATE INDEX CONCURRENTLY IF NOT EXISTS items_value_idx ON items (value);";
      await writeFile(path.join(dir, "0002_broken", "migration.sql"), fixed);
      expect(await applyMigrations(db, { migrationsDir: dir })).toEqual({ applied: ["0002_broken"] });

      const { rows } = await db.query<{ checksum: string }>(
        `SELECT checksum FROM "_prisma_migrations" WHERE migration_name = '0002_broken' AND rolled_back_at IS NULL`,
      );
      expect(rows).toEqual([{ checksum: createHash("sha256").update(fixed).digest("hex") }]);
      expect(await applyMigrations(db, { migrationsDir: dir })).toEqual({ applied: [] });
    } finally {
      await pglite.close();
    }
  });

  it("refuses the marker anywhere but as the first line, before applying anything", async () => {
    const dir = await migrationsDir({
      "0001_ok": "CREATE TABLE first_table (id int);",
      "0002_late_marker":
        "-- add an index without locking writes\n-- bc:no-transaction\nCREATE INDEX CONCURRENTLY IF NOT EXISTS i ON first_table (id);",
    });
    const { pglite, db } = await freshPglite();
    try {
      await expect(applyMigrations(db, { migrationsDir: dir })).rejects.toThrow(
        /Migration "0002_late_marker" mentions bc:no-transaction on line 2, but the marker only counts as the whole first line/,
      );
      expect(await tableNames(db)).toEqual(["_prisma_migrations"]);
    } finally {
      await pglite.close();
    }
  });

  it("refuses a CREATE or DROP that could not run twice, naming its line", async () => {
    const dir = await migrationsDir({
      "0001_once_only": "-- bc:no-transaction\nCREATE TABLE t (id int);\nCREATE INDEX CONCURRENTLY t_idx ON t (id);",
    });
    const { pglite, db } = await freshPglite();
    try {
      await expect(applyMigrations(db, { migrationsDir: dir })).rejects.toThrow(
        /Migration "0001_once_only" runs without a transaction.*statement on line 2 cannot run twice/,
      );
    } finally {
      await pglite.close();
    }
  });

  it("still refuses when the unfinished row is not the only one", async () => {
    const dir = await migrationsDir({
      "0001_items": "CREATE TABLE items (id int PRIMARY KEY, value int);",
      "0002_items_value_key": CONCURRENT_INDEX_MIGRATION,
    });
    const { pglite, db } = await freshPglite();
    try {
      await applyMigrations(db, { migrationsDir: dir });
      await db.query(`UPDATE "_prisma_migrations" SET finished_at = NULL`);
      await expect(applyMigrations(db, { migrationsDir: dir })).rejects.toThrow(
        /Migration "0001_items", "0002_items_value_key" was started but never finished/,
      );
    } finally {
      await pglite.close();
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)("applyMigrations on real PostgreSQL", ALL_MIGRATIONS, () => {
  const connect = async (schema?: string) => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    if (schema) await client.query(`SET search_path TO "${schema}"`);
    return client;
  };

  /** A scratch schema of the test database: nothing of the shared one is touched. */
  async function withScratchSchema(run: (schema: string, admin: pg.Client) => Promise<void>): Promise<void> {
    const schema = `migrations_test_${process.pid}_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = await connect();
    try {
      await admin.query(`CREATE SCHEMA "${schema}"`);
      await run(schema, admin);
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  }

  /** One instance's session, in the scratch schema. */
  async function withInstance(schema: string, run: (db: SqlExecutor, client: pg.Client) => Promise<void>): Promise<void> {
    const client = await connect(schema);
    try {
      await run(executorFromPgClient(client), client);
    } finally {
      await client.end();
    }
  }

  it("applies once when two instances migrate one database at the same time, a CONCURRENTLY migration included", async () => {
    // The lock holder's CREATE INDEX CONCURRENTLY waits for older snapshots to
    // go; an instance blocked inside pg_advisory_lock would hold one (deadlock).
    const dir = await tempDir();
    await cp(COMMITTED_MIGRATIONS, dir, { recursive: true });
    const extra = "99990101000000_concurrent_index";
    await mkdir(path.join(dir, extra));
    await writeFile(
      path.join(dir, extra, "migration.sql"),
      "-- bc:no-transaction\nDROP INDEX CONCURRENTLY IF EXISTS nodes_test_idx;\nCREATE INDEX CONCURRENTLY IF NOT EXISTS nodes_test_idx ON nodes (id);\n",
    );
    const expected = [...ALL, extra];

    await withScratchSchema(async (schema, admin) => {
      const instances = [await connect(schema), await connect(schema)];
      try {
        // Hold the migration lock so that both instances are surely waiting on it at once.
        await admin.query("SELECT pg_advisory_lock($1)", [MIGRATE_LOCK_KEY]);
        const logs: string[][] = [[], []];
        const runs = Promise.all(
          instances.map((client, i) =>
            applyMigrations(executorFromPgClient(client), { migrationsDir: dir, log: (line) => logs[i]?.push(line) }),
          ),
        );
        runs.catch(() => {}); // reported by the await below, not as an unhandled rejection meanwhile
        await expect.poll(() => logs.filter((lines) => lines.some((line) => line.includes("waiting"))).length, { timeout: 10_000 }).toBe(2);
        await admin.query("SELECT pg_advisory_unlock($1)", [MIGRATE_LOCK_KEY]);

        const applied = (await runs).map((run) => run.applied);
        expect(applied.flat()).toEqual(expected);
        expect(logs.flat().filter((line) => line.includes("waiting"))).toHaveLength(2);
        const { rows } = await admin.query<{ migration_name: string; finished: boolean }>(
          `SELECT migration_name, finished_at IS NOT NULL AS finished FROM "${schema}"."_prisma_migrations" ORDER BY migration_name`,
        );
        expect(rows).toEqual(expected.map((migration_name) => ({ migration_name, finished: true })));
      } finally {
        await Promise.all(instances.map((client) => client.end()));
      }
    });
  });

  it("applies a no-transaction CREATE INDEX CONCURRENTLY migration and records its row as Prisma does", async () => {
    const dir = await migrationsDir({
      "0001_items": "CREATE TABLE items (id int PRIMARY KEY, value int);\nINSERT INTO items VALUES (1, 1), (2, 2);",
      "0002_items_value_key": CONCURRENT_INDEX_MIGRATION,
      "0003_after": "CREATE TABLE after_items (id int);",
    });
    await withScratchSchema(async (schema) =>
      withInstance(schema, async (db) => {
        expect(await applyMigrations(db, { migrationsDir: dir })).toEqual({
          applied: ["0001_items", "0002_items_value_key", "0003_after"],
        });
        expect(await indexValidity(db)).toEqual({ items_value_key: true });
        expect(await attempts(db)).toEqual(
          ["0001_items", "0002_items_value_key", "0003_after"].map((migration_name) => ({
            migration_name,
            finished: true,
            rolled_back: false,
            logs: null,
            applied_steps_count: 1,
          })),
        );
        const { rows } = await db.query<{ checksum: string }>(
          `SELECT checksum FROM "_prisma_migrations" WHERE migration_name = '0002_items_value_key'`,
        );
        expect(rows).toEqual([{ checksum: createHash("sha256").update(CONCURRENT_INDEX_MIGRATION).digest("hex") }]);
      }),
    );
  });

  it("leaves a failed no-transaction migration unfinished with its error, applies nothing after it, and re-runs it once the cause is fixed", async () => {
    const dir = await migrationsDir({
      "0001_items": "CREATE TABLE items (id int PRIMARY KEY, value int);\nINSERT INTO items VALUES (1, 7), (2, 7);",
      "0002_items_value_key": CONCURRENT_INDEX_MIGRATION,
      "0003_after": "CREATE TABLE after_items (id int);",
    });
    await withScratchSchema(async (schema) =>
      withInstance(schema, async (db) => {
        const failure =
          /Migration "0002_items_value_key" \(no transaction\) failed: statement 2 of 2 \(line 3\) failed: could not create unique index "items_value_key".*next migrate re-runs it/;
        await expect(applyMigrations(db, { migrationsDir: dir })).rejects.toThrow(failure);
        expect(await tableNames(db)).toEqual(["_prisma_migrations", "items"]);
        // What a failed CREATE INDEX CONCURRENTLY leaves behind.
        expect(await indexValidity(db)).toEqual({ items_value_key: false });
        expect(await attempts(db)).toEqual([
          expect.objectContaining({ migration_name: "0001_items", finished: true }),
          {
            migration_name: "0002_items_value_key",
            finished: false,
            rolled_back: false,
            logs: expect.stringMatching(/^statement 2 of 2 \(line 3\) failed: could not create unique index/),
            applied_steps_count: 0,
          },
        ]);

        // Not fixed yet: re-run, failing the same way (not refused as "never finished").
        await expect(applyMigrations(db, { migrationsDir: dir })).rejects.toThrow(failure);

        await db.query("UPDATE items SET value = 8 WHERE id = 2");
        const logs: string[] = [];
        expect(await applyMigrations(db, { migrationsDir: dir, log: (line) => logs.push(line) })).toEqual({
          applied: ["0002_items_value_key", "0003_after"],
        });
        expect(logs[0]).toMatch(/re-running 0002_items_value_key, a no-transaction migration whose last run did not finish/);
        expect(await indexValidity(db)).toEqual({ items_value_key: true });
        // The failed runs stay as rolled-back rows with their logs; `prisma migrate status` reads the finished one.
        expect((await attempts(db)).map((row) => [row.migration_name, row.finished, row.rolled_back, row.logs !== null])).toEqual([
          ["0001_items", true, false, false],
          ["0002_items_value_key", false, true, true],
          ["0002_items_value_key", false, true, true],
          ["0002_items_value_key", true, false, false],
          ["0003_after", true, false, false],
        ]);
      }),
    );
  });

  it("does not finish a migration whose IF NOT EXISTS skipped an index left invalid by an earlier failure", async () => {
    const dir = await migrationsDir({
      "0001_items": "CREATE TABLE items (id int PRIMARY KEY, value int);\nINSERT INTO items VALUES (1, 7), (2, 7);",
      "0002_no_drop_first": "-- bc:no-transaction\nCREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS items_value_key ON items (value);",
    });
    await withScratchSchema(async (schema) =>
      withInstance(schema, async (db) => {
        await expect(applyMigrations(db, { migrationsDir: dir })).rejects.toThrow(/could not create unique index/);
        await db.query("UPDATE items SET value = 8 WHERE id = 2");
        await expect(applyMigrations(db, { migrationsDir: dir })).rejects.toThrow(
          /Migration "0002_no_drop_first" \(no transaction\) failed: it left invalid index "items_value_key" .*DROP INDEX CONCURRENTLY IF EXISTS/,
        );
        expect((await attempts(db)).at(-1)).toMatchObject({ finished: false, logs: expect.stringMatching(/^it left invalid index/) });
      }),
    );
  });

  it("still rolls an ordinary migration back whole", async () => {
    const dir = await migrationsDir({
      "0001_ok": "CREATE TABLE first_table (id int);",
      "0002_broken":
        "CREATE TABLE half_applied (id int);\nCREATE INDEX half_applied_idx ON half_applied (id);\nALTER TABLE missing_table ADD COLUMN x int;",
    });
    await withScratchSchema(async (schema) =>
      withInstance(schema, async (db) => {
        await expect(applyMigrations(db, { migrationsDir: dir })).rejects.toThrow(
          /Migration "0002_broken" failed and was rolled back: .*missing_table/,
        );
        expect(await tableNames(db)).toEqual(["_prisma_migrations", "first_table"]);
        expect((await attempts(db)).map((row) => row.migration_name)).toEqual(["0001_ok"]);
      }),
    );
  });
});
