import { randomBytes } from "node:crypto";
import type { FullConfig } from "@playwright/test";
import { startPostgresCluster } from "../harness/postgres-cluster";
import { runNpmScript } from "../harness/run-npm-script";
import { startAppServer } from "../harness/start-app-server";

/**
 * The app under test: `next start` (the production build) on the test
 * database with a console sign-in configured. `npm test` passes its own
 * DATABASE_URL (migrated and seeded); run alone, `npx playwright test` makes a
 * throwaway cluster of its own. BC_E2E_BASE_URL: test a server already running.
 */
export default async function globalSetup(_config: FullConfig) {
  if (process.env.BC_E2E_BASE_URL) return undefined;
  // `npm test` sets it; run alone, this run's own (it encrypts the tenant CAs' keys).
  process.env.BC_CA_KEY_ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
  let stopCluster: (() => Promise<void>) | undefined;
  if (!process.env.DATABASE_URL) {
    const cluster = await startPostgresCluster();
    stopCluster = cluster.stop;
    process.env.DATABASE_URL = cluster.url; // the workers' data helpers read it too
    await runNpmScript("db:migrate", { DATABASE_URL: cluster.url });
    await runNpmScript("db:seed", { DATABASE_URL: cluster.url });
  }
  const port = Number(process.env.BC_E2E_PORT);
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = await startAppServer({
    databaseUrl: process.env.DATABASE_URL,
    logFile: "test-results/browser-server.log",
    port,
    env: {
      NEXTAUTH_URL: baseUrl,
      NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? randomBytes(32).toString("base64url"),
      BC_LOG_LEVEL: process.env.BC_LOG_LEVEL ?? "warn",
    },
  });
  return async () => {
    await server.stop();
    await stopCluster?.();
  };
}
