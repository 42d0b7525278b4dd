import "server-only";
import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "./generated/client";
import { applyMigrations } from "./migrations";
import { executorFromPglite } from "./sql-executor";
import { seedDemoData } from "../seed/seed-demo-data";
import { log } from "../log";

/**
 * The embedded default (no DATABASE_URL): PostgreSQL in Wasm, in-process,
 * data in a directory that belongs to one process at a time. Migrated on
 * every open and seeded with the demo data when it is new, so a fresh clone's
 * `npm run dev` serves a populated console with no database server.
 */
export async function openEmbeddedDatabase(dir: string): Promise<PrismaClient> {
  await mkdir(dir, { recursive: true });
  const pglite = await PGlite.create(dir);
  const { applied } = await applyMigrations(executorFromPglite(pglite));
  const db = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  if (applied.length > 0 && (await db.tenant.count()) === 0) {
    log.info("embedded database is new: seeding the demo data", { dir });
    await seedDemoData(db);
  }
  return db;
}
