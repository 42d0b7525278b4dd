import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { startAppServer } from "../harness/start-app-server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    serverLogFile: string;
    /** the server's BC_METRICS_TOKEN (GET /metrics) */
    metricsToken: string;
  }
}

/** The API tests talk HTTP to a real `next start` on the test database. */
export default async function setup(project: TestProject) {
  const metricsToken = randomBytes(24).toString("base64url");
  const server = await startAppServer({
    databaseUrl: process.env.DATABASE_URL!,
    logFile: "test-results/api-server.log",
    // The join signs node certificates: with DATABASE_URL the tenant CAs'
    // keys need an encryption key (npm test sets one for the whole run).
    // BC_WORKERS=off: in-process retention would mark the requests tests keep
    // past expiry (some assert stored states and exact event lists); worker
    // tests run their own workers, limited to their own tenant.
    env: {
      BC_CA_KEY_ENCRYPTION_KEY: process.env.BC_CA_KEY_ENCRYPTION_KEY ?? randomBytes(32).toString("base64"),
      NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? randomBytes(32).toString("base64"),
      BC_WORKERS: "off",
      BC_METRICS_TOKEN: metricsToken,
    },
  });
  project.provide("baseUrl", server.baseUrl);
  project.provide("serverLogFile", server.logFile);
  project.provide("metricsToken", metricsToken);
  return () => server.stop();
}
