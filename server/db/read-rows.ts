import "server-only";
import { postgresPoolOf, type Db } from "./client";
import type { Prisma } from "./generated/client";
import { retryRawReadOnce } from "./retry-reads";

/**
 * A read-only statement's rows, asked once more after a lost connection. On
 * PostgreSQL it goes straight through the pool Prisma's adapter uses: for the
 * statements of the hottest calls (a published method's credential and page,
 * a node's report) Prisma's $queryRaw machinery was most of our own CPU
 * beside the framework's (bench:profile, issue #38). On the embedded database
 * it goes through $queryRaw. A statement read here must give the same values
 * both ways: text, booleans, timestamptz, bytea, json, text[] and int[] do;
 * int8 and numeric do not (pg gives them as strings). The bench's floors
 * send the same statements through pg and check the app's bytes against theirs.
 */
export function readRows<T>(db: Db, sql: Prisma.Sql): Promise<T[]> {
  const pool = postgresPoolOf(db);
  if (!pool) return retryRawReadOnce(() => db.$queryRaw<T[]>(sql));
  return retryRawReadOnce(async () => (await pool.query(sql.text, sql.values as unknown[])).rows as T[]);
}
