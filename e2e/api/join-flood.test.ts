import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startAppServer, type AppServer } from "@/test/harness/start-app-server";
import { createJoinWorld, createJoinTokenRow, join, knownMachine, makeMachine, type JoinWorld } from "@/test/api/machine";

// The flood guard: at most BC_MAX_PENDING_PER_POOL live pending requests per
// pool and BC_MAX_PENDING_PER_SITE unclaimed per site; beyond, 429. A server
// of its own with small limits, on the same database.
const POOL_LIMIT = 3;
const SITE_LIMIT = 2;
let server: AppServer;
let world: JoinWorld;

beforeAll(async () => {
  [server, world] = await Promise.all([
    startAppServer({
      databaseUrl: inject("databaseUrl"),
      logFile: "test-results/api-server-flood.log",
      env: {
        // on the shared test database: its retention must not mark the requests other files keep (npm test sets it too)
        BC_WORKERS: "off",
        BC_MAX_PENDING_PER_POOL: String(POOL_LIMIT),
        BC_MAX_PENDING_PER_SITE: String(SITE_LIMIT),
        BC_CA_KEY_ENCRYPTION_KEY: process.env.BC_CA_KEY_ENCRYPTION_KEY ?? randomBytes(32).toString("base64"),
      },
    }),
    createJoinWorld(),
  ]);
}, 120_000);

afterAll(() => server?.stop());

const joinHere = (...[machine, bearer]: Parameters<typeof join>) => join(machine, bearer, { baseUrl: server.baseUrl });

describe("nodes/join flood guard", () => {
  it("pool: past the limit of pending requests → 429; retries and admissions are not counted", async () => {
    const machines = [];
    for (let i = 0; i < POOL_LIMIT; i++) {
      const machine = await makeMachine();
      expect((await joinHere(machine, world.tokens.a)).status).toBe(202);
      machines.push(machine);
    }
    const refused = await joinHere(await makeMachine(), world.tokens.a);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("RESOURCE_EXHAUSTED");
    expect(refused.headers.get("retry-after")).toBe("60");
    expect((await joinHere(machines[0]!, world.tokens.a)).status).toBe(202); // a retry
    expect((await joinHere(await knownMachine(world.inventory.known), world.tokens.a)).status).toBe(200);
    // another pool of the site has its own count
    expect((await joinHere(await makeMachine(), world.tokens.b)).status).toBe(202);
  });

  it("site: past the limit of unclaimed requests → 429", async () => {
    for (let i = 0; i < SITE_LIMIT; i++) expect((await joinHere(await makeMachine(), world.siteKey)).status).toBe(202);
    expect((await joinHere(await makeMachine(), world.siteKey)).status).toBe(429);
  });

  it("a refused join does not use the token", async () => {
    const token = await createJoinTokenRow(world.tenantId, world.pools.a, { maxUses: 1 });
    expect((await joinHere(await makeMachine(), token)).status).toBe(429);
    expect((await joinHere(await knownMachine(world.inventory.known), token)).status).toBe(200);
  });

  it("10 machines at once into an empty pool: exactly the limit get pending requests, the rest 429", async () => {
    const token = await createJoinTokenRow(world.tenantId, world.pools.otherSite);
    const machines = await Promise.all(Array.from({ length: 10 }, () => makeMachine()));
    const responses = await Promise.all(machines.map((machine) => joinHere(machine, token)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([...Array(POOL_LIMIT).fill(202), ...Array(10 - POOL_LIMIT).fill(429)]);
  });
});
