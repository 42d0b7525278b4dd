import { randomBytes } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { Client, escapeIdentifier } from "pg";
import { PrismaClient } from "@/server/db/generated/client";
import { runNpmScript } from "../harness/run-npm-script";

// A database of its own, next to the test database on the same server, for
// tests that run unscoped background workers (an app with BC_WORKERS=on,
// `npm run worker`): retention there must not touch the shared database.

export interface ScratchDatabase {
  url: string;
  db: PrismaClient;
  drop(): Promise<void>;
}

export async function createScratchDatabase(): Promise<ScratchDatabase> {
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
  await runNpmScript("db:migrate", { DATABASE_URL: url.toString() });
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: url.toString(), max: 3 }) });
  return {
    url: url.toString(),
    db,
    async drop() {
      await db.$disconnect();
      const client = new Client({ connectionString: base.toString() });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(name)} WITH (FORCE)`);
      } finally {
        await client.end();
      }
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
