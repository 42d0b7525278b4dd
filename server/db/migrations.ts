import { randomUUID } from "node:crypto";
import { checksumMatches, defaultMigrationsDir, readMigrationFolders, type MigrationFolder } from "./migration-folders";
import { applyWithoutTransaction } from "./no-transaction-migration";
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
const LOCK_POLL_MS = 200;

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
  id: string;
  migration_name: string;
  checksum: string;
  finished_at: unknown;
}

/**
 * Applies the committed migrations that the database has not seen yet, each
 * in its own transaction together with its `_prisma_migrations` row (or, when
 * marked `-- bc:no-transaction`, statement by statement after its row: see
 * applyWithoutTransaction). Safe to
 * call from several instances at once: they take turns on an advisory lock,
 * and the later ones find nothing left to do.
 */
export async function applyMigrations(db: SqlExecutor, options: ApplyMigrationsOptions = {}): Promise<{ applied: string[] }> {
  const migrationsDir = options.migrationsDir ?? defaultMigrationsDir();
  const log = options.log ?? (() => {});
  return oneRunPerSession(db, () =>
    withMigrateLock(db, log, async () => {
      await db.exec(CREATE_MIGRATIONS_TABLE);
      const folders = await readMigrationFolders(migrationsDir);
      const { pending, retry } = await pendingMigrations(db, folders, log);
      const applied: string[] = [];
      for (const folder of pending) {
        const startedAt = performance.now();
        if (!folder.noTransaction) await applyInTransaction(db, folder);
        else await applyWithoutTransaction(db, folder, retry?.migration_name === folder.name ? retry.id : undefined);
        applied.push(folder.name);
        log(`applied ${folder.name} (${Math.round(performance.now() - startedAt)} ms)`);
      }
      return { applied };
    }),
  );
}

/**
 * The folders not applied yet, after refusing a history we cannot build on,
 * and the unfinished row of a no-transaction migration to re-run, if any.
 */
async function pendingMigrations(
  db: SqlExecutor,
  folders: MigrationFolder[],
  log: (line: string) => void,
): Promise<{ pending: MigrationFolder[]; retry: MigrationRow | undefined }> {
  // Rolled-back rows (`prisma migrate resolve --rolled-back`) are audit trail only.
  const { rows: recorded } = await db.query<MigrationRow>(
    `SELECT id, migration_name, checksum, finished_at FROM "_prisma_migrations"
     WHERE rolled_back_at IS NULL ORDER BY started_at`,
  );
  const byName = new Map(folders.map((folder) => [folder.name, folder]));

  // An unfinished row is a run that failed or died midway. A transactional
  // migration cannot leave one behind (ours roll back row and all), so it is
  // someone else's and only a person can tell what state it left. A
  // no-transaction migration of ours is re-runnable by contract, and we hold
  // the lock, so nobody is running it now (a migrator that died mid-statement
  // keeps the lock until its server session ends): it is simply run again.
  const unfinished = recorded.filter((row) => row.finished_at === null);
  const [onlyUnfinished, ...moreUnfinished] = unfinished;
  const retry =
    onlyUnfinished && moreUnfinished.length === 0 && byName.get(onlyUnfinished.migration_name)?.noTransaction ? onlyUnfinished : undefined;
  if (unfinished.length > 0 && !retry) {
    throw new Error(
      `Migration ${quoteList(unfinished.map((row) => row.migration_name))} was started but never finished ` +
        `(a failed \`prisma migrate deploy\`?). ` +
        `Repair the database by hand, then record the outcome with ` +
        `\`prisma migrate resolve --rolled-back <name>\` or \`--applied <name>\` before migrating again.`,
    );
  }
  if (retry) log(`re-running ${retry.migration_name}, a no-transaction migration whose last run did not finish`);
  // Its file may have been fixed since: the new run records the new checksum.
  const rows = recorded.filter((row) => row !== retry);

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
  return { pending: folders.filter((folder) => !appliedNames.has(folder.name)), retry };
}

async function applyInTransaction(db: SqlExecutor, folder: MigrationFolder): Promise<void> {
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
  // Polled, not waited for in pg_advisory_lock: a session blocked in that
  // SELECT holds a snapshot, and CREATE INDEX CONCURRENTLY in the lock
  // holder's session waits for every older snapshot to go away — a deadlock
  // PostgreSQL resolves by failing one of the two.
  let waiting = false;
  while (!(await tryMigrateLock(db))) {
    if (!waiting) log("another migrator is running: waiting for it to finish");
    waiting = true;
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
  try {
    return await run();
  } finally {
    // Session-level lock: if the connection is gone, so is the lock.
    await db.query("SELECT pg_advisory_unlock($1)", [MIGRATE_LOCK_KEY]).catch(() => {});
  }
}

async function tryMigrateLock(db: SqlExecutor): Promise<boolean> {
  const { rows } = await db.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [MIGRATE_LOCK_KEY]);
  return rows[0]?.locked === true;
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
