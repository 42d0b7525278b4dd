import { randomBytes } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { Client, escapeIdentifier } from "pg";
import { PrismaClient } from "@/server/db/generated/client";
import { applyMigrations } from "@/server/db/migrations";
import { executorFromPgClient } from "@/server/db/sql-executor";

// A database of its own, next to the test database on the same server, for
// tests that run unscoped background workers (an app with BC_WORKERS=on,
// `npm run worker`): retention there must not touch the shared database.

export interface ScratchDatabase {
  url: string;
  db: PrismaClient;
  drop(): Promise<void>;
}

/**
 * An empty database on the test server, with the committed migrations applied
 * in this process: what `npm run db:migrate` does, without starting npm and
 * tsx for it (seconds of CPU each, issue 33). `drop` removes it.
 */
export async function createMigratedDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(process.env.DATABASE_URL!);
  const name = `bc_scratch_${randomBytes(6).toString("hex")}`;
  const admin = new Client({ connectionString: base.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await applyMigrations(executorFromPgClient(client));
  } finally {
    await client.end();
  }
  return {
    url: url.toString(),
    async drop() {
      const admin = new Client({ connectionString: base.toString() });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(name)} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}

export async function createScratchDatabase(): Promise<ScratchDatabase> {
  const { url, drop } = await createMigratedDatabase();
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 3 }) });
  return {
    url,
    db,
    async drop() {
      await db.$disconnect();
      await drop();
    },
  };
}

/** A tenant with one site and pool in a scratch database. */
export async function scratchTenant(db: PrismaClient): Promise<{ tenantId: string; siteId: string; poolId: string }> {
  const s = randomBytes(4).toString("hex");
  const ids = { tenantId: `t-${s}`, siteId: `site-${s}`, poolId: `pool-${s}` };
  await db.tenant.create({ data: { id: ids.tenantId, name: ids.tenantId } });
  await db.site.create({ data: { id: ids.siteId, tenantId: ids.tenantId, name: ids.siteId } });
  await db.pool.create({ data: { id: ids.poolId, tenantId: ids.tenantId, siteId: ids.siteId, name: ids.poolId } });
  return ids;
}
