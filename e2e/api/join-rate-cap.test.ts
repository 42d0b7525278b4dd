import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startAppServer, type AppServer } from "@/test/harness/start-app-server";
import { createJoinTokenRow, createJoinWorld, join, makeMachine, type JoinWorld } from "@/test/api/machine";

// Issue 14 item 5: at most BC_JOIN_MAX_PER_MINUTE joins per credential per
// minute, counted in the database: two instances share the count. Beyond,
// 429 RESOURCE_EXHAUSTED with Retry-After. Servers of their own with a cap of 5.
const CAP = 5;
let servers: AppServer[];
let world: JoinWorld;

beforeAll(async () => {
  const start = (name: string) =>
    startAppServer({
      databaseUrl: inject("databaseUrl"),
      logFile: `test-results/api-server-join-cap-${name}.log`,
      // BC_WORKERS off: on the shared test database its retention must not mark the requests other files keep (npm test sets it too)
      env: { BC_JOIN_MAX_PER_MINUTE: String(CAP), BC_WORKERS: "off" },
    });
  [servers, world] = await Promise.all([Promise.all([start("a"), start("b")]), createJoinWorld()]);
}, 120_000);
afterAll(() => Promise.all(servers?.map((server) => server.stop()) ?? []));

describe("nodes/join rate cap per credential", () => {
  it("the sixth join of a minute with one token, on either instance, is 429 with Retry-After; another token is not held back", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < CAP; i++)
      statuses.push((await join(await makeMachine(), world.tokens.a, { baseUrl: servers[i % 2]!.baseUrl })).status);
    expect(statuses).toEqual(Array(CAP).fill(202));

    const refused = await join(await makeMachine(), world.tokens.a, { baseUrl: servers[1]!.baseUrl });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: {
        code: "RESOURCE_EXHAUSTED",
        message: expect.stringMatching(/^too many joins with this credential \(at most 5 a minute\); try again in \d+ s$/),
      },
    });
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    expect((await join(await makeMachine(), world.tokens.b, { baseUrl: servers[0]!.baseUrl })).status).toBe(202);
  });

  it("30 joins at once with one token: at most the cap get through, the rest 429", async () => {
    const token = await createJoinTokenRow(world.tenantId, world.pools.b);
    const machines = await Promise.all(Array.from({ length: 30 }, () => makeMachine()));
    const answers = await Promise.all(machines.map((machine, i) => join(machine, token, { baseUrl: servers[i % 2]!.baseUrl })));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 202)).toHaveLength(CAP);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30 - CAP);
  });
});
