import "server-only";
import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "./generated/client";
import { applyMigrations } from "./migrations";
import { executorFromPglite } from "./sql-executor";

/**
 * The embedded default (no DATABASE_URL): PostgreSQL in Wasm, in-process,
 * data in a directory that belongs to one process at a time. Migrated on
 * every open. The app seeds a new one with the demo data when it starts
 * (server/seed/seed-embedded-demo.ts); opening it here never does.
 */
export async function openEmbeddedDatabase(dir: string): Promise<PrismaClient> {
  await mkdir(dir, { recursive: true });
  const pglite = await PGlite.create(dir);
  await applyMigrations(executorFromPglite(pglite));
  return new PrismaClient({ adapter: new PrismaPGlite(pglite) });
}
