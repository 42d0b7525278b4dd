import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";

/**
 * The little SQL the migrator needs, over either database we run on. One
 * executor stands for one database session: the migrator's lock and
 * transaction live on it.
 */
export interface SqlExecutor {
  /** One statement, with `$1`-style parameters. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** Any number of statements, no parameters (a migration.sql file). */
  exec(sql: string): Promise<void>;
}

// One executor per session, so that the migrator can tell when two of its runs
// share a session (a session's advisory locks do not exclude each other).
const pgExecutors = new WeakMap<pg.ClientBase, SqlExecutor>();
const pgliteExecutors = new WeakMap<PGlite, SqlExecutor>();

export function executorFromPgClient(client: pg.ClientBase): SqlExecutor {
  let executor = pgExecutors.get(client);
  if (!executor) {
    executor = {
      async query<T>(sql: string, params?: unknown[]) {
        const result = await client.query(sql, params);
        return { rows: result.rows as T[] };
      },
      async exec(sql: string) {
        // Without parameters pg uses the simple query protocol, which accepts
        // several statements in one string.
        await client.query(sql);
      },
    };
    pgExecutors.set(client, executor);
  }
  return executor;
}

export function executorFromPglite(db: PGlite): SqlExecutor {
  let executor = pgliteExecutors.get(db);
  if (!executor) {
    executor = {
      async query<T>(sql: string, params?: unknown[]) {
        const result = await db.query<T>(sql, params);
        return { rows: result.rows };
      },
      async exec(sql: string) {
        await db.exec(sql);
      },
    };
    pgliteExecutors.set(db, executor);
  }
  return executor;
}
