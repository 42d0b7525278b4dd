import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { splitSqlStatements } from "./sql-statements";

/** One committed migration: `prisma/migrations/<name>/migration.sql`. */
export interface MigrationFolder {
  name: string;
  sql: string;
  /** Hex SHA-256 of the file's bytes, as Prisma records it in `_prisma_migrations`. */
  checksum: string;
  /**
   * The file's first line is {@link NO_TRANSACTION_MARKER}: it runs statement
   * by statement outside a transaction (for `CREATE INDEX CONCURRENTLY`), and a
   * failed run is re-run from its first statement, so it must be re-runnable.
   */
  noTransaction: boolean;
}

export const NO_TRANSACTION_MARKER = "-- bc:no-transaction";

export const MIGRATION_FILE = "migration.sql";

export function defaultMigrationsDir(cwd: string = process.cwd()): string {
  return path.join(cwd, "prisma", "migrations");
}

/** The migration folders of `dir` in name (= timestamp) order. */
export async function readMigrationFolders(dir: string): Promise<MigrationFolder[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new Error(`Cannot read the migrations directory ${dir}: ${messageOf(error)}`, { cause: error });
  }
  // Byte order, not locale order: the same on every machine.
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

  return Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name, MIGRATION_FILE);
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (error) {
        throw new Error(`Migration "${name}" has no readable ${MIGRATION_FILE}: ${messageOf(error)}`, {
          cause: error,
        });
      }
      const sql = bytes.toString("utf8");
      const noTransaction = hasNoTransactionMarker(name, sql);
      if (noTransaction) checkRerunnable(name, sql);
      return { name, sql, checksum: sha256Hex(bytes), noTransaction };
    }),
  );
}

/**
 * The marker counts only as the whole first line. Anywhere else (or
 * misspelt there) it is refused rather than ignored: a migration its author
 * meant to run outside a transaction would otherwise run inside one, and a
 * CONCURRENTLY in it would fail on every database.
 */
function hasNoTransactionMarker(name: string, sql: string): boolean {
  const lines = sql.split(/\r?\n/);
  const markedFirst = startsWithNoTransactionMarker(sql);
  const misplaced = lines.findIndex((line, index) => line.includes("bc:no-transaction") && !(index === 0 && markedFirst));
  if (misplaced !== -1) {
    throw new Error(
      `Migration "${name}" mentions bc:no-transaction on line ${misplaced + 1}, but the marker only counts as the ` +
        `whole first line of ${MIGRATION_FILE}: "${NO_TRANSACTION_MARKER}". Put it there exactly once, or remove it.`,
    );
  }
  return markedFirst;
}

/** Whether the first line of a migration.sql is the marker (validated by readMigrationFolders). */
export function startsWithNoTransactionMarker(sql: string): boolean {
  return sql.split(/\r?\n/, 1)[0]?.trim() === NO_TRANSACTION_MARKER;
}

// A failed no-transaction migration is re-run from its first statement, so
// every CREATE and DROP in it must tolerate having run already.
const CREATE_OR_DROP = /^(CREATE|DROP)\b/i;
const IDEMPOTENT = /\bIF\s+(NOT\s+)?EXISTS\b|^CREATE\s+OR\s+REPLACE\b/i;

function checkRerunnable(name: string, sql: string): void {
  for (const statement of splitSqlStatements(sql)) {
    if (CREATE_OR_DROP.test(statement.sql) && !IDEMPOTENT.test(statement.sql)) {
      throw new Error(
        `Migration "${name}" runs without a transaction, so it is re-run from the start after a failure, ` +
          `but its statement on line ${statement.line} cannot run twice: write CREATE ... IF NOT EXISTS / ` +
          `DROP ... IF EXISTS (for an index: DROP INDEX CONCURRENTLY IF EXISTS x; then ` +
          `CREATE INDEX CONCURRENTLY IF NOT EXISTS x ...).`,
      );
    }
  }
}

/**
 * Whether a migration file still is what was applied. Like Prisma, a file
 * whose line endings git converted (LF <-> CRLF) still matches.
 */
export function checksumMatches(folder: MigrationFolder, recordedChecksum: string): boolean {
  const variants = [folder.sql.replace(/\r\n/g, "\n"), folder.sql.replace(/\r?\n/g, "\r\n")];
  return folder.checksum === recordedChecksum || variants.some((sql) => sha256Hex(Buffer.from(sql, "utf8")) === recordedChecksum);
}

function sha256Hex(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
