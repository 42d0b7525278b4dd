/**
 * `npm run db:migrate`: applies the committed migrations to DATABASE_URL, or,
 * without it, to the embedded PGlite database in BC_PGLITE_DIR.
 */
import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { connectionTarget, type ConnectionTarget } from "../../server/db/connection-target";
import { applyMigrations } from "../../server/db/migrations";
import { executorFromPgClient, executorFromPglite, type SqlExecutor } from "../../server/db/sql-executor";

const CONNECT_TIMEOUT_MS = 10_000;

async function main(): Promise<void> {
  const target = connectionTarget();
  const where = describeTarget(target);
  const { applied } = await withExecutor(target, (db) => applyMigrations(db, { log: (line) => console.log(line) }));
  console.log(
    applied.length === 0
      ? `no migrations to apply: ${where} is up to date`
      : `applied ${applied.length} migration${applied.length === 1 ? "" : "s"} to ${where}`,
  );
}

async function withExecutor<T>(target: ConnectionTarget, run: (db: SqlExecutor) => Promise<T>): Promise<T> {
  if (target.kind === "postgres") {
    const client = new pg.Client({ connectionString: target.url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    // An idle client's errors (e.g. the server going away) must not crash the process unreported.
    client.on("error", () => {});
    try {
      await client.connect();
    } catch (error) {
      throw new Error(`cannot connect to ${describeTarget(target)}: ${messageOf(error)}`, { cause: error });
    }
    try {
      return await run(executorFromPgClient(client));
    } finally {
      await client.end().catch(() => {});
    }
  }

  if (!target.dir.includes("://")) await mkdir(target.dir, { recursive: true });
  const db = await PGlite.create(target.dir);
  try {
    return await run(executorFromPglite(db));
  } finally {
    await db.close();
  }
}

/** Where we migrate, without the password. */
function describeTarget(target: ConnectionTarget): string {
  if (target.kind === "pglite") return `the embedded database (${target.dir})`;
  try {
    const url = new URL(target.url);
    return `PostgreSQL at ${url.host}${url.pathname}`;
  } catch {
    return "PostgreSQL (DATABASE_URL is not a valid URL)";
  }
}

/** Node reports a refused localhost (tried on ::1 and 127.0.0.1) as an AggregateError with no message. */
function messageOf(error: unknown): string {
  if (error instanceof AggregateError && !error.message) return error.errors.map(messageOf).join("; ");
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

main().catch((error: unknown) => {
  console.error(`db:migrate failed: ${messageOf(error)}`);
  process.exitCode = 1;
});
