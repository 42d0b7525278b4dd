import { randomUUID } from "node:crypto";
import type { MigrationFolder } from "./migration-folders";
import { splitSqlStatements } from "./sql-statements";
import type { SqlExecutor } from "./sql-executor";

/**
 * Applies a `-- bc:no-transaction` migration the way `prisma migrate deploy`
 * records every migration: the history row first (started, not finished),
 * then the statements one at a time — each its own implicit transaction, as
 * CREATE INDEX CONCURRENTLY requires — then finished_at. A failure leaves the
 * row unfinished with the error in `logs`; the next run re-runs the file from
 * its first statement (see pendingMigrations), so such files are re-runnable.
 *
 * `previousAttemptId` is the unfinished row of a failed earlier run: it is
 * marked rolled back (as `prisma migrate resolve --rolled-back` would) and
 * kept with its logs, and this run gets a row of its own.
 */
export async function applyWithoutTransaction(db: SqlExecutor, folder: MigrationFolder, previousAttemptId?: string): Promise<void> {
  if (previousAttemptId !== undefined) {
    await db.query(`UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE id = $1`, [previousAttemptId]);
  }
  const id = randomUUID();
  await db.query(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, applied_steps_count) VALUES ($1, $2, $3, 0)`, [
    id,
    folder.checksum,
    folder.name,
  ]);

  const statements = splitSqlStatements(folder.sql);
  for (const [index, statement] of statements.entries()) {
    try {
      await db.exec(statement.sql);
    } catch (error) {
      await fail(
        db,
        id,
        folder,
        `statement ${index + 1} of ${statements.length} (line ${statement.line}) failed: ${messageOf(error)}`,
        error,
      );
    }
  }

  // `CREATE INDEX CONCURRENTLY IF NOT EXISTS x` skips an x that an earlier,
  // failed build left behind INVALID (unused by queries, yet still
  // maintained on every write): finishing would hide it for good.
  const invalid = await invalidIndexes(db);
  if (invalid.length > 0) {
    await fail(
      db,
      id,
      folder,
      `it left invalid ${invalid.length === 1 ? "index" : "indexes"} ${invalid.map((name) => `"${name}"`).join(", ")} ` +
        `(a CREATE INDEX CONCURRENTLY that failed, then skipped by IF NOT EXISTS: drop it first with ` +
        `DROP INDEX CONCURRENTLY IF EXISTS)`,
    );
  }

  await db.query(`UPDATE "_prisma_migrations" SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1`, [id]);
}

async function fail(db: SqlExecutor, id: string, folder: MigrationFolder, reason: string, cause?: unknown): Promise<never> {
  // The connection may be gone; then the row stays unfinished without logs, which is still refused or re-run.
  await db.query(`UPDATE "_prisma_migrations" SET logs = $2 WHERE id = $1`, [id, reason]).catch(() => {});
  throw new Error(
    `Migration "${folder.name}" (no transaction) failed: ${reason}. Its statements before that stay applied and ` +
      `its _prisma_migrations row stays unfinished. Fix the cause; the next migrate re-runs it from its first statement.`,
    { cause },
  );
}

/** Invalid indexes of the schema we migrate (there should be none after a migration). */
async function invalidIndexes(db: SqlExecutor): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE NOT i.indisvalid AND c.relnamespace = current_schema()::regnamespace ORDER BY c.relname`,
  );
  return rows.map((row) => row.name);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
