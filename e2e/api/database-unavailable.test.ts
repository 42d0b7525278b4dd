import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startAppServer, type AppServer } from "@/test/harness/start-app-server";
import { callMethod, expectError, httpRequest } from "@/test/api/api-client";

// SPEC B3: UNAVAILABLE 503 "e.g. the database is down". A second app server
// whose DATABASE_URL names a port nothing listens on.
let server: AppServer;
beforeAll(async () => {
  const port = await freePort();
  server = await startAppServer({
    databaseUrl: `postgresql://postgres@127.0.0.1:${port}/bc_nowhere`,
    logFile: "test-results/api-server-database-down.log",
  });
});
afterAll(async () => {
  await server?.stop();
});

const BEARER = "bcsk_somekey.some-secret"; // well-formed; checking it needs the database
const body = (extra: Record<string, unknown> = {}) => ({ tenantId: "acme", poolId: "gpu-a", ...extra });

describe("the database is down → 503 UNAVAILABLE (B3)", () => {
  it.each([
    ["joinRequests/list", body()],
    ["joinRequests/approve", body({ requestId: "jreq_01arz3ndektsv4rrffq69g5fav" })],
    ["joinRequests/reject", body({ requestId: "jreq_01arz3ndektsv4rrffq69g5fav" })],
    ["events/list", body()],
  ])("%s with a valid-looking bearer → 503 UNAVAILABLE envelope, x-request-id, no stack trace", async (method, input) => {
    const response = await callMethod(method, input, { bearer: BEARER, baseUrl: server.baseUrl });
    expectError(response, 503, "UNAVAILABLE"); // envelope, x-request-id, no internals
    expect(response.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/i);
  });

  it("GET /api/health (readiness) → 503 with Retry-After naming the database, without its address; live is still 200", async () => {
    const health = await httpRequest("/api/health", {}, server.baseUrl);
    expect(health.status, health.text).toBe(503);
    expect(health.headers.get("retry-after")).toBe("5");
    expect(health.body).toMatchObject({
      status: "unavailable",
      checks: { database: "unreachable: the database does not answer", migrations: "not checked: the database is unreachable" },
    });
    expect(health.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|bc_nowhere/);
    expect((await httpRequest("/api/health/live", {}, server.baseUrl)).status).toBe(200);
  });
});
