import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "@/test/harness/start-app-server";
import { httpRequest } from "@/test/api/api-client";
import { createScratchDatabase, type ScratchDatabase } from "@/test/api/scratch-database";

// Issue 19 item 3: live (the process answers) apart from ready (database
// reachable, every committed migration applied, configuration complete).

describe("the shared test server", () => {
  it("/api/health is ready: 200 and every check ok", async () => {
    const health = await httpRequest("/api/health");
    expect(health.status, health.text).toBe(200);
    expect(health.body).toEqual({ status: "ok", checks: { database: "ok", migrations: "ok", configuration: "ok" } });
  });

  it("/api/health/live is 200", async () => {
    const live = await httpRequest("/api/health/live");
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: "live" });
  });
});

describe("a server whose database lacks its latest migration, without BC_METRICS_TOKEN", () => {
  let scratch: ScratchDatabase;
  let server: AppServer;
  let removed: string;
  beforeAll(async () => {
    scratch = await createScratchDatabase();
    // As if the deployment's newest migration had not been applied yet.
    const [latest] = await scratch.db.$queryRaw<{ name: string }[]>`
      DELETE FROM "_prisma_migrations" WHERE migration_name = (SELECT max(migration_name) FROM "_prisma_migrations") RETURNING migration_name AS name`;
    removed = latest!.name;
    server = await startAppServer({
      databaseUrl: scratch.url,
      logFile: `test-results/health-pending-migration-${process.pid}.log`,
      env: {
        BC_WORKERS: "off",
        BC_METRICS_TOKEN: "",
        BC_CA_KEY_ENCRYPTION_KEY: process.env.BC_CA_KEY_ENCRYPTION_KEY ?? randomBytes(32).toString("base64"),
        NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? randomBytes(32).toString("base64"),
      },
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await scratch?.drop();
  });

  it("/api/health is 503 with Retry-After, naming the migration not applied", async () => {
    const health = await httpRequest("/api/health", {}, server.baseUrl);
    expect(health.status, health.text).toBe(503);
    expect(health.headers.get("retry-after")).toBe("5");
    expect(health.body).toEqual({
      status: "unavailable",
      checks: { database: "ok", migrations: `1 not applied: ${removed} (run npm run db:migrate)`, configuration: "ok" },
    });
  });

  it("/api/health/live is 200 all the same", async () => {
    expect((await httpRequest("/api/health/live", {}, server.baseUrl)).status).toBe(200);
  });

  it("/metrics is not served: 404, with or without a bearer", async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: "Bearer anything-at-all-here" }];
    for (const headers of attempts) {
      const response = await httpRequest("/metrics", { headers }, server.baseUrl);
      expect(response.status).toBe(404);
      expect(response.text).not.toContain("bc_");
    }
  });
});
