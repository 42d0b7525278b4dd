import "server-only";
import { postgresPoolOf, type Db } from "./client";
import type { Prisma } from "./generated/client";

/**
 * One write statement that needs no transaction of its own (a conditional
 * UPDATE), outside any transaction: its row count. On PostgreSQL it goes
 * straight through the pool Prisma's adapter uses, as readRows does, for the
 * writes of the hottest call — a daemon's report every five minutes finds its
 * node's lastSeenAt and its snapshot's lastReportedAt due, and Prisma's
 * updateMany machinery was most of the call's own CPU after the framework
 * (issue #38). On the embedded database, $executeRaw. Never asked again after
 * a lost connection (retry-reads.ts says why); inside a transaction use the
 * transaction's own client, never this.
 */
export async function writeStatement(db: Db, sql: Prisma.Sql): Promise<number> {
  const pool = postgresPoolOf(db);
  if (!pool) return db.$executeRaw(sql);
  return (await pool.query(sql.text, sql.values as unknown[])).rowCount ?? 0;
}
