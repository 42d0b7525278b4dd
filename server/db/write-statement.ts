import "server-only";
import { postgresPoolOf, type Db, type Tx } from "./client";
import type { Prisma } from "./generated/client";

/**
 * One write statement that needs no transaction of its own (a conditional
 * UPDATE): its row count. Given the client getDb made, on PostgreSQL it goes
 * straight through the pool Prisma's adapter uses, as readRows does, for the
 * writes of the hottest call — a daemon's report every five minutes finds its
 * node's lastSeenAt and its snapshot's lastReportedAt due, and Prisma's
 * updateMany machinery was most of the call's own CPU after the framework
 * (issue #38). Given a transaction's client (which has no pool of its own:
 * postgresPoolOf), or on the embedded database, $executeRaw on that client, so
 * the statement stays in the transaction. Never asked again after a lost
 * connection (retry-reads.ts says why).
 */
export async function writeStatement(db: Db | Tx, sql: Prisma.Sql): Promise<number> {
  const pool = postgresPoolOf(db);
  if (!pool) return db.$executeRaw(sql);
  return (await pool.query(sql.text, sql.values as unknown[])).rowCount ?? 0;
}

/**
 * The rows a write statement returns (its RETURNING, or a CTE's SELECT), the
 * same way as writeStatement: through the pool for getDb's client, where the
 * statement is its own transaction and commits as PostgreSQL finishes it,
 * with no round trip to us between its last row lock and its COMMIT; through
 * $queryRaw for a transaction's client or the embedded database.
 */
export async function writeRows<T>(db: Db | Tx, sql: Prisma.Sql): Promise<T[]> {
  const pool = postgresPoolOf(db);
  if (!pool) return db.$queryRaw<T[]>(sql);
  return (await pool.query(sql.text, sql.values as unknown[])).rows as T[];
}
