import { randomBytes } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg, { Client, escapeIdentifier } from "pg";
import { expect } from "vitest";
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

export interface ExplainedScratchDatabase extends ScratchDatabase {
  /** The plans of the statements `run` sent through `db` (auto_explain's text, one a statement), and what it returned. */
  plansOf<T>(run: () => Promise<T>): Promise<{ plans: string[]; result: T }>;
}

/**
 * A scratch database whose client is told the plan of every statement it
 * runs, as PostgreSQL chose it with the values bound: auto_explain, its LOG
 * lines sent to the client. A plan test can then call the code itself,
 * whether it asks through Prisma's model or in SQL. Needs a superuser (the
 * test servers are the harness's own, as postgres).
 */
export async function createExplainedScratchDatabase(): Promise<ExplainedScratchDatabase> {
  const { url, drop } = await createMigratedDatabase();
  const admin = new Client({ connectionString: url });
  await admin.connect();
  try {
    const database = escapeIdentifier(new URL(url).pathname.slice(1));
    await admin.query(`ALTER DATABASE ${database} SET session_preload_libraries = 'auto_explain'`);
    await admin.query(`ALTER DATABASE ${database} SET auto_explain.log_min_duration = 0`);
    await admin.query(`ALTER DATABASE ${database} SET client_min_messages = 'log'`);
  } finally {
    await admin.end();
  }
  let heard: string[] | null = null;
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  pool.on("connect", (client) => client.on("notice", (notice) => heard?.push(notice.message ?? "")));
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  return {
    url,
    db,
    async plansOf(run) {
      heard = [];
      try {
        const result = await run();
        return { plans: heard.filter((message) => message.includes("plan:")), result };
      } finally {
        heard = null;
      }
    },
    async drop() {
      await db.$disconnect();
      await drop();
    },
  };
}

/**
 * Each scan of `table` in `plans`, as EXPLAIN names it: "Seq Scan", "Index
 * Scan using <index>"; a bitmap scan as "Bitmap Heap Scan using <index>", the
 * index its (first) Bitmap Index Scan reads.
 */
export function scansOn(plans: string[], table: string): string[] {
  const scan = new RegExp(`^(?:->)?\\s*(\\w[\\w ]*? Scan(?: using \\S+)?) on ${table}(?:\\s|$)`);
  return plans.flatMap((plan) => {
    const lines = plan.split("\n").map((line) => line.trim());
    return lines.flatMap((line, at) => {
      const name = scan.exec(line)?.[1];
      if (name !== "Bitmap Heap Scan") return name ?? [];
      const index = lines.slice(at + 1).flatMap((next) => /Bitmap Index Scan on (\S+)/.exec(next)?.[1] ?? [])[0];
      return index ? `${name} using ${index}` : name;
    });
  });
}

/** A scan through `index`: plain, index-only (as VACUUM has seen the table) or bitmap, as the planner prefers. */
export function indexScan(index: string): unknown {
  return expect.stringMatching(new RegExp(`^(Index|Index Only|Bitmap Heap) Scan using ${index}$`));
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
