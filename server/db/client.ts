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
    return new PrismaClient({ adapter: new PrismaPg(pool) }).$extends({
      query: { $allModels: { $allOperations: ({ operation, args, query }) => retryReadOnce(operation, () => query(args)) } },
    }) as unknown as Db;
  }
  // Loaded only when used: production never pulls PGlite's Wasm in.
  const { openEmbeddedDatabase } = await import("./embedded-database");
  return openEmbeddedDatabase(target.dir);
}

/** The pg pool Prisma's adapter uses; null before it opens and with the embedded database. */
export function postgresPool(): pg.Pool | null {
  return cache.__betterComputePgPool ?? null;
}

/** The pg pool's connection counts; null before it opens and with the embedded database. */
export function databasePoolStats(): { total: number; idle: number; waiting: number } | null {
  const pool = cache.__betterComputePgPool;
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : null;
}
