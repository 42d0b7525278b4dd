import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { startPostgresCluster } from "../harness/postgres-cluster";
import { runNpmScript } from "../harness/run-npm-script";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/**
 * Real PostgreSQL for the tests: the one `npm test` started (DATABASE_URL),
 * or, when vitest runs alone, a throwaway cluster of our own, migrated and
 * seeded, stopped at the end. Runs in vitest's main process.
 */
export default async function setup(project: TestProject) {
  let stop: (() => Promise<void>) | undefined;
  // `npm test` sets it; run alone, this run's own (the seed's admissions sign with the tenant CAs it encrypts).
  process.env.BC_CA_KEY_ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
  if (!process.env.DATABASE_URL) {
    const cluster = await startPostgresCluster();
    stop = cluster.stop;
    process.env.DATABASE_URL = cluster.url;
    await runNpmScript("db:migrate", { DATABASE_URL: cluster.url });
    await runNpmScript("db:seed", { DATABASE_URL: cluster.url });
  }
  project.provide("databaseUrl", process.env.DATABASE_URL);
  return async () => {
    await stop?.();
  };
}
