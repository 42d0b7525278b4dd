import { afterAll, beforeAll, expect, it } from "vitest";
import { startAppServer, type AppServer } from "@/test/harness/start-app-server";
import { createJoinWorld, joinBody, makeMachine, requestsForCsr, csrSha256, type JoinWorld } from "@/test/api/machine";
import { eventTypesOf, makeRequests, storedRequest } from "@/test/api/world";
import { callUntilAnswered, inParallel, postMethod, startFaultDatabase, Tally, type FaultDatabase } from "@/test/faults/fault-harness";

// SPEC B3 / issue 14: PostgreSQL restarted (fast shutdown: sessions terminated,
// transactions rolled back) while 16 callers reject requests and machines
// join. No 500 at all; every 503 carries Retry-After; whatever answered 200
// is stored with exactly one event; every retried call ends as it would have
// without the fault; and the app heals without being restarted.
let database: FaultDatabase;
let server: AppServer;
let world: JoinWorld;

beforeAll(async () => {
  database = await startFaultDatabase();
  world = await createJoinWorld();
  server = await startAppServer({
    databaseUrl: database.cluster.url,
    logFile: "test-results/faults-database-restart.log",
    env: database.env,
  });
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await database?.cluster.stop();
});

const REJECTIONS = 120;
const JOINS = 60;

it("PostgreSQL restarted during 16 concurrent rejections and joins: no 500, 503s with Retry-After, each outcome stored once", async () => {
  const requestIds = await makeRequests(world, REJECTIONS, { poolId: world.pools.a });
  const machines = await Promise.all(Array.from({ length: JOINS }, () => makeMachine()));
  const tally = new Tally("database restart");
  type Work = { kind: "reject"; requestId: string } | { kind: "join"; machine: (typeof machines)[number] };
  const work: Work[] = [];
  for (let i = 0; i < REJECTIONS; i++) {
    work.push({ kind: "reject", requestId: requestIds[i]! });
    if (i % 2 === 0) work.push({ kind: "join", machine: machines[i / 2]! });
  }

  let restarted: Promise<void> | undefined;
  const answers = await inParallel(work, 16, async (item, index) => {
    // a quarter of the way in, the database goes away for two seconds
    if (index === Math.floor(work.length / 4)) restarted = database.cluster.restart({ downMs: 2_000 });
    if (item.kind === "reject") {
      const body = { tenantId: world.tenantId, poolId: world.pools.a, requestId: item.requestId, reason: "fault suite" };
      return callUntilAnswered(tally, postMethod(server.baseUrl, "joinRequests/reject", world.keys.admin, body));
    }
    return callUntilAnswered(tally, () =>
      fetch(`${server.baseUrl}/api/compute/nodes/join`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${world.tokens.a}` },
        body: JSON.stringify(joinBody(item.machine)),
      }),
    );
  });
  await restarted;

  expect(tally.unavailable, "the restart happened while calls were in flight").toBeGreaterThan(0);
  expect(tally.statuses.get(500) ?? 0, "500s").toBe(0);
  expect(tally.unavailableWithoutRetryAfter, "503s without Retry-After").toBe(0);

  // every call ended as it would have without the fault
  work.forEach((item, index) =>
    expect(answers[index]!.status, `${item.kind} ${answers[index]!.text}`).toBe(item.kind === "reject" ? 200 : 202),
  );
  let eventsChecked = 0;
  for (const requestId of requestIds) {
    expect((await storedRequest(requestId)).state).toBe("rejected");
    const types = await eventTypesOf(requestId);
    expect(
      types.filter((type) => type.endsWith(".rejected")),
      requestId,
    ).toHaveLength(1);
    eventsChecked += types.length;
  }
  for (const machine of machines) {
    const requests = await requestsForCsr(csrSha256(machine.csr));
    expect(requests, `one request for ${machine.hostname}`).toHaveLength(1);
    const types = await eventTypesOf(requests[0]!.id);
    expect(types.filter((type) => type.endsWith(".created"))).toHaveLength(1);
    eventsChecked += types.length;
  }
  tally.print({ rejections: REJECTIONS, joins: JOINS, eventsChecked });
}, 240_000);

it("the app healed without a restart: /api/health 200 and a list answers", async () => {
  const health = await fetch(`${server.baseUrl}/api/health`);
  expect(health.status).toBe(200);
  const list = await postMethod(server.baseUrl, "joinRequests/list", world.keys.admin, {
    tenantId: world.tenantId,
    poolId: world.pools.a,
  })();
  expect(list.status).toBe(200);
});

it("/api/health answers 503 with Retry-After naming the database while it is away, and 200 once it is back", async () => {
  const seen: number[] = [];
  const unavailableChecks = new Set<string>();
  let retryAfterMissing = 0;
  const restarted = database.cluster.restart({ downMs: 3_000 });
  let done = false;
  void restarted.finally(() => (done = true));
  while (!done) {
    const health = await fetch(`${server.baseUrl}/api/health`);
    const body = (await health.json()) as { status: string; checks: Record<string, string> };
    if (seen.at(-1) !== health.status) seen.push(health.status);
    if (health.status === 503 && !health.headers.get("retry-after")) retryAfterMissing++;
    if (health.status === 503) unavailableChecks.add(JSON.stringify(body));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await expect.poll(async () => (await fetch(`${server.baseUrl}/api/health`)).status, { timeout: 10_000 }).toBe(200);
  const ready = await (await fetch(`${server.baseUrl}/api/health`)).json();
  expect(ready).toEqual({ status: "ok", checks: { database: "ok", migrations: "ok", configuration: "ok" } });
  expect(seen).toContain(503);
  // the 503s named the database (a probe racing the shutdown may instead find the history unreadable)
  const bodies = [...unavailableChecks].map((body) => JSON.parse(body) as { status: string; checks: Record<string, string> });
  expect(bodies).toContainEqual({
    status: "unavailable",
    checks: {
      database: "unreachable: the database does not answer",
      migrations: "not checked: the database is unreachable",
      configuration: "ok",
    },
  });
  for (const body of bodies) expect(body.checks.configuration).toBe("ok");
  expect(
    seen.filter((status) => status !== 200 && status !== 503),
    "statuses other than 200 and 503",
  ).toEqual([]);
  expect(retryAfterMissing).toBe(0);
});
