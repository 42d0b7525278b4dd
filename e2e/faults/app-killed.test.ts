import { afterAll, beforeAll, expect, it } from "vitest";
import { createWorld, eventTypesOf, makeRequests, storedRequest, type World } from "@/test/api/world";
import {
  callUntilAnswered,
  inParallel,
  killEveryProcess,
  killableApp,
  type KillableApp,
  postMethod,
  startFaultDatabase,
  Tally,
  type FaultDatabase,
} from "@/test/faults/fault-harness";

// Issue 14: `npm start` killed with SIGKILL (no clean stop: every process of
// it, in the middle of 200 approvals at 16 concurrent), then started again,
// the clients retrying what got no answer. Each approval is one transaction
// with its event, so a killed process leaves either both or neither.
let database: FaultDatabase;
let world: World;
let app: KillableApp;

beforeAll(async () => {
  database = await startFaultDatabase();
  world = await createWorld();
  app = await killableApp(database, "test-results/faults-app-killed.log");
}, 180_000);
afterAll(async () => {
  await app?.stopAll();
  await database?.cluster.stop();
});

const APPROVALS = 200;

it("SIGKILL in the middle of 200 approvals at 16 concurrent, restart, clients retry: all approved, one event each", async () => {
  const requestIds = await makeRequests(world, APPROVALS, { poolId: world.pools.a });
  const tally = new Tally("app killed");
  const baseUrl = (await app.start()).baseUrl;
  let restarted: Promise<unknown> | undefined;
  let finished = 0;
  const answers = await inParallel(requestIds, 16, async (requestId) => {
    const body = { tenantId: world.tenantId, poolId: world.pools.a, requestId, ttlSeconds: 3600 };
    const answer = await callUntilAnswered(tally, postMethod(baseUrl, "joinRequests/approve", world.keys.admin, body));
    // 60 answered: the next 16 are in flight when everything is killed
    if (++finished === 60) {
      killEveryProcess(app.latest());
      restarted = app.start();
    }
    return answer;
  });
  await restarted;

  expect(tally.connectionErrors, "calls in flight when the processes died").toBeGreaterThan(0);
  expect(tally.statuses.get(500) ?? 0, "500s").toBe(0);
  expect(tally.unavailableWithoutRetryAfter, "503s without Retry-After").toBe(0);
  answers.forEach((answer) => expect(answer.status, answer.text).toBe(200));
  let eventsChecked = 0;
  for (const requestId of requestIds) {
    const stored = await storedRequest(requestId);
    expect(stored.state, requestId).toBe("approved");
    expect(stored.decidedBy, `${requestId} approved whole`).not.toBeNull();
    const types = await eventTypesOf(requestId);
    expect(
      types.filter((type) => type.endsWith(".approved")),
      requestId,
    ).toHaveLength(1);
    eventsChecked += types.length;
  }
  tally.print({ approvals: APPROVALS, eventsChecked });
}, 240_000);
