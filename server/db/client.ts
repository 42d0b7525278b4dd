import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient, type Prisma } from "./generated/client";
import { connectionTarget } from "./connection-target";
import { retryReadOnce } from "./retry-reads";
import { env } from "../env";

export type Db = PrismaClient;
/** A Prisma client inside an interactive transaction. */
export type Tx = Prisma.TransactionClient;

// One client per process, cached on globalThis so that dev hot reloads do not
// open a new pool each time (prisma/prisma#17566). The client holds no state
// of ours: several app instances may share one database.
const cache = globalThis as typeof globalThis & { __betterComputeDb?: Promise<Db>; __betterComputePgPool?: pg.Pool };

export function getDb(): Promise<Db> {
  cache.__betterComputeDb ??= openDb().catch((error: unknown) => {
    cache.__betterComputeDb = undefined; // let the next request try again
    throw error;
  });
  return cache.__betterComputeDb;
}

async function openDb(): Promise<Db> {
  const target = connectionTarget();
  if (target.kind === "postgres") {
    // A server that vanished without a reset (a dropped route, a frozen VM)
    // would hold a connect forever; past this it is a 503 like any other outage.
    // Our own pool (not one the adapter makes) so that metrics can read its counts.
    const pool = new pg.Pool({ connectionString: target.url, max: env().BC_DB_POOL_MAX, connectionTimeoutMillis: 5_000 });
    cache.__betterComputePgPool = pool;
    // A failover (docs/high-availability.md) cuts pooled connections: a read is asked once more.
    const db = new PrismaClient({ adapter: new PrismaPg(pool) }).$extends({
      query: { $allModels: { $allOperations: ({ operation, args, query }) => retryReadOnce(operation, () => query(args)) } },
    }) as unknown as Db;
    poolsOfClients.set(db, pool);
    return db;
  }
  // Loaded only when used: production never pulls PGlite's Wasm in.
  const { openEmbeddedDatabase } = await import("./embedded-database");
  return openEmbeddedDatabase(target.dir);
}

/**
 * Closes this process's database client and its pg pool, for a command that
 * is done (the seed): Prisma's $disconnect leaves a pool it was handed open,
 * and the pool's idle connections kept the process alive for another 10 s
 * (pg's idleTimeoutMillis) after its work was done.
 */
export async function closeDb(): Promise<void> {
  const db = cache.__betterComputeDb;
  const pool = cache.__betterComputePgPool;
  cache.__betterComputeDb = undefined;
  cache.__betterComputePgPool = undefined;
  await (await db?.catch(() => undefined))?.$disconnect();
  await pool?.end();
}

// Which pg pool a client getDb made sends through: only those. A client made
// elsewhere (a test's or the seed's scratch database), a transaction's client
// and the embedded database have none, and their statements go through Prisma.
const poolsOfClients = new WeakMap<object, pg.Pool>();

/**
 * The pg pool `db`'s statements go through, when `db` is the client getDb
 * made on PostgreSQL; null for any other client. Never the process's pool
 * for a client of another database: a statement sent there would read or
 * write the wrong database (as the seed's demo joins into a fresh database did).
 */
export function postgresPoolOf(db: Db | Prisma.TransactionClient): pg.Pool | null {
  return poolsOfClients.get(db) ?? null;
}

/** The pg pool's connection counts; null before it opens and with the embedded database. */
export function databasePoolStats(): { total: number; idle: number; waiting: number } | null {
  const pool = cache.__betterComputePgPool;
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : null;
}
