import "server-only";
import { getDb } from "../db/client";
import { readOnlyMemberError } from "../db/failover-signs";
import { defaultMigrationsDir, readMigrationFolders } from "../db/migration-folders";
import { checkStartConfig } from "../lifecycle/start-config";
import type { ReadinessSources } from "./check-readiness";

// The committed migrations do not change while a process runs: read them once.
let committed: Promise<string[]> | undefined;

export const readinessSources: ReadinessSources = {
  async ping() {
    // A member in recovery answering at the leader's address (the moment of a failover) cannot take writes.
    const [row] = await (await getDb()).$queryRaw<{ recovering: boolean }[]>`SELECT pg_is_in_recovery() AS recovering`;
    if (row?.recovering) throw readOnlyMemberError();
  },
  async appliedMigrations() {
    const db = await getDb();
    // A database never migrated has no history table: nothing is applied.
    const [table] = await db.$queryRaw<{ exists: boolean }[]>`SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS exists`;
    if (!table?.exists) return [];
    const rows = await db.$queryRaw<{ name: string }[]>`
      SELECT migration_name AS name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
    return rows.map((row) => row.name);
  },
  committedMigrations() {
    committed ??= readMigrationFolders(defaultMigrationsDir()).then((folders) => folders.map((folder) => folder.name));
    committed.catch(() => (committed = undefined)); // a failed read is tried again at the next probe
    return committed;
  },
  configurationProblem: () => checkStartConfig().problem,
};
