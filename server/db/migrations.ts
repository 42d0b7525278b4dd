import { randomUUID } from "node:crypto";
import { checksumMatches, defaultMigrationsDir, readMigrationFolders, type MigrationFolder } from "./migration-folders";
import type { SqlExecutor } from "./sql-executor";

export type { SqlExecutor } from "./sql-executor";

export interface ApplyMigrationsOptions {
  /** Default: `<cwd>/prisma/migrations`. */
  migrationsDir?: string;
  /** Receives one line per applied migration (and warnings). */
  log?: (line: string) => void;
}

// Prisma Migrate's own advisory lock key: our migrator and a connected
// machine's `prisma migrate deploy` also exclude each other.
export const MIGRATE_LOCK_KEY = 72707369;

// Prisma's table, column for column (prisma-engines, postgres flavour of
// create_migrations_table), so `prisma migrate deploy/status` read our history.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: unknown;
}

/**
 * Applies the committed migrations that the database has not seen yet, each
 * in its own transaction together with its `_prisma_migrations` row. Safe to
 * call from several instances at once: they take turns on an advisory lock,
 * and the later ones find nothing left to do.
 */
export async function applyMigrations(
  db: SqlExecutor,
  options: ApplyMigrationsOptions = {},
): Promise<{ applied: string[] }> {
  const migrationsDir = options.migrationsDir ?? defaultMigrationsDir();
  const log = options.log ?? (() => {});
  return oneRunPerSession(db, () =>
    withMigrateLock(db, log, async () => {
      await db.exec(CREATE_MIGRATIONS_TABLE);
      const folders = await readMigrationFolders(migrationsDir);
      const pending = await pendingMigrations(db, folders, log);
      const applied: string[] = [];
      for (const folder of pending) {
        const startedAt = performance.now();
        await applyOne(db, folder);
        applied.push(folder.name);
        log(`applied ${folder.name} (${Math.round(performance.now() - startedAt)} ms)`);
      }
      return { applied };
    }),
  );
}

/** The folders not applied yet, after refusing a history we cannot build on. */
async function pendingMigrations(
  db: SqlExecutor,
  folders: MigrationFolder[],
  log: (line: string) => void,
): Promise<MigrationFolder[]> {
  // Rolled-back rows (`prisma migrate resolve --rolled-back`) are audit trail only.
  const { rows } = await db.query<MigrationRow>(
    `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations"
     WHERE rolled_back_at IS NULL ORDER BY started_at`,
  );

  const unfinished = rows.filter((row) => row.finished_at === null).map((row) => row.migration_name);
  if (unfinished.length > 0) {
    throw new Error(
      `Migration ${quoteList(unfinished)} was started but never finished (a failed \`prisma migrate deploy\`?). ` +
        `Repair the database by hand, then record the outcome with ` +
        `\`prisma migrate resolve --rolled-back <name>\` or \`--applied <name>\` before migrating again.`,
    );
  }

  const byName = new Map(folders.map((folder) => [folder.name, folder]));
  const edited = rows
    .filter((row) => {
      const folder = byName.get(row.migration_name);
      return folder !== undefined && !checksumMatches(folder, row.checksum);
    })
    .map((row) => row.migration_name);
  if (edited.length > 0) {
    throw new Error(
      `Migration ${quoteList(edited)} was changed after it was applied (its migration.sql checksum differs ` +
        `from the one recorded in _prisma_migrations). Restore the applied file and put the change in a new migration.`,
    );
  }

  const appliedNames = new Set(rows.map((row) => row.migration_name));
  for (const name of appliedNames) {
    if (!byName.has(name)) log(`warning: the database has migration ${name}, which is not in the migrations directory`);
  }
  return folders.filter((folder) => !appliedNames.has(folder.name));
}

async function applyOne(db: SqlExecutor, folder: MigrationFolder): Promise<void> {
  await db.exec("BEGIN");
  try {
    await db.exec(folder.sql);
    // started_at defaults to now(), the transaction's start; finished_at is the wall clock.
    await db.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count)
       VALUES ($1, $2, $3, clock_timestamp(), 1)`,
      [randomUUID(), folder.checksum, folder.name],
    );
    await db.exec("COMMIT");
  } catch (error) {
    await db.exec("ROLLBACK").catch(() => {}); // the connection may be gone; the error below matters
    throw new Error(`Migration "${folder.name}" failed and was rolled back: ${messageOf(error)}`, { cause: error });
  }
}

async function withMigrateLock<T>(db: SqlExecutor, log: (line: string) => void, run: () => Promise<T>): Promise<T> {
  const { rows } = await db.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [MIGRATE_LOCK_KEY]);
  if (!rows[0]?.locked) {
    log("another migrator is running: waiting for it to finish");
    await db.query("SELECT pg_advisory_lock($1)", [MIGRATE_LOCK_KEY]);
  }
  try {
    return await run();
  } finally {
    // Session-level lock: if the connection is gone, so is the lock.
    await db.query("SELECT pg_advisory_unlock($1)", [MIGRATE_LOCK_KEY]).catch(() => {});
  }
}

// A session's advisory locks do not exclude each other, so two runs on one
// session (one PGlite, one pg client) are queued here instead.
const runsBySession = new WeakMap<SqlExecutor, Promise<unknown>>();

function oneRunPerSession<T>(db: SqlExecutor, run: () => Promise<T>): Promise<T> {
  const previous = runsBySession.get(db) ?? Promise.resolve();
  const current = previous.then(run);
  runsBySession.set(
    db,
    current.catch(() => {}),
  );
  return current;
}

function quoteList(names: string[]): string {
  return names.map((name) => `"${name}"`).join(", ");
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
