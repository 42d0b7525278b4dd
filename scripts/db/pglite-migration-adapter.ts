/**
 * pglite-prisma-adapter's factory for the schema engine, with both databases
 * (main and shadow) in memory, and two fixes the engine needs from 0.7.2:
 *
 * - Its executeScript does not await PGlite's exec: a committed migration
 *   that fails on the shadow database is not reported to the engine (which
 *   then diffs against a wrong state) but crashes the process later as an
 *   unhandled rejection. Here the script is awaited and its error returned.
 * - Its shadow PGlite is never closed, and PGlite's timers keep the process
 *   alive for ~10 s after the work is done. Here close() closes everything.
 *
 * And one of ours: a `-- bc:no-transaction` migration is replayed statement
 * by statement, as our migrator applies it. One exec of the whole file would
 * be one implicit transaction, which CREATE INDEX CONCURRENTLY refuses.
 */
import { PGlite, messages } from "@electric-sql/pglite";
import { DriverAdapterError, type SqlDriverAdapter, type SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { startsWithNoTransactionMarker } from "../../server/db/migration-folders";
import { splitSqlStatements } from "../../server/db/sql-statements";

export class InMemoryPgliteMigrationAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = "postgres";
  readonly adapterName = "pglite-prisma-adapter";
  private readonly databases: PGlite[] = [];

  connect(): Promise<SqlDriverAdapter> {
    return this.openInMemory();
  }

  connectToShadowDb(): Promise<SqlDriverAdapter> {
    return this.openInMemory();
  }

  async close(): Promise<void> {
    await Promise.all(this.databases.splice(0).map((db) => (db.closed ? undefined : db.close())));
  }

  private async openInMemory(): Promise<SqlDriverAdapter> {
    const db = await PGlite.create();
    this.databases.push(db);
    const adapter: SqlDriverAdapter = await new PrismaPGlite(db).connect();
    return {
      provider: adapter.provider,
      adapterName: adapter.adapterName,
      queryRaw: (query) => adapter.queryRaw(query),
      executeRaw: (query) => adapter.executeRaw(query),
      startTransaction: (isolationLevel) => adapter.startTransaction(isolationLevel),
      getConnectionInfo: () => adapter.getConnectionInfo?.() ?? { supportsRelationJoins: true },
      async executeScript(script) {
        try {
          if (!startsWithNoTransactionMarker(script)) await db.exec(script);
          else for (const statement of splitSqlStatements(script)) await db.exec(statement.sql);
        } catch (error) {
          throw asDriverAdapterError(error);
        }
      },
      dispose: () => db.close(),
    };
  }
}

/** PostgreSQL errors in the shape the engine reports with their code and message. */
function asDriverAdapterError(error: unknown): unknown {
  if (!(error instanceof messages.DatabaseError)) return error;
  return new DriverAdapterError({
    kind: "postgres",
    code: error.code ?? "unknown",
    severity: error.severity ?? "ERROR",
    message: error.message,
    detail: error.detail,
    column: error.column,
    hint: error.hint,
  });
}
