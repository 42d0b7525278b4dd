import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/** One committed migration: `prisma/migrations/<name>/migration.sql`. */
export interface MigrationFolder {
  name: string;
  sql: string;
  /** Hex SHA-256 of the file's bytes, as Prisma records it in `_prisma_migrations`. */
  checksum: string;
}

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
      return { name, sql: bytes.toString("utf8"), checksum: sha256Hex(bytes) };
    }),
  );
}

/**
 * Whether a migration file still is what was applied. Like Prisma, a file
 * whose line endings git converted (LF <-> CRLF) still matches.
 */
export function checksumMatches(folder: MigrationFolder, recordedChecksum: string): boolean {
  const variants = [folder.sql.replace(/\r\n/g, "\n"), folder.sql.replace(/\r?\n/g, "\r\n")];
  return (
    folder.checksum === recordedChecksum ||
    variants.some((sql) => sha256Hex(Buffer.from(sql, "utf8")) === recordedChecksum)
  );
}

function sha256Hex(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
