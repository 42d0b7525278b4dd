import type { ChildProcess } from "node:child_process";
import { mkdirSync, openSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { createWebhookSubscription } from "@/server/webhooks/webhook-subscriptions";
import { createJoinWorld, csrSha256, joinBody, makeMachine, requestsForCsr, type JoinWorld } from "@/test/api/machine";
import type { TestNode } from "@/test/api/node";
import { startWebhookReceiver, type WebhookReceiver } from "@/test/api/webhook-receiver";
import { eventTypesOf, makeRequest, makeRequests, storedRequest } from "@/test/api/world";
import { callUntilAnswered, inParallel, postMethod, Tally } from "@/test/faults/fault-harness";
import { admitNodeAt, reportInventoryAt, startHaFaultDatabase, type HaFaultDatabase } from "@/test/harness/ha-fault-setup";
import { watchHealth } from "@/test/harness/ha-health-watch";
import { spawnWorker } from "@/test/harness/spawn-worker";
import { startAppServer, type AppServer } from "@/test/harness/start-app-server";

// Issue 37: the leader of a Patroni cluster (etcd, two members, synchronous
// replication, HAProxy's leader port in front) is lost — its Patroni and its
// PostgreSQL SIGKILLed, as when the machine dies — while 16 clients approve,
// reject and join and 50 nodes report inventory. Patroni promotes the sync
// standby; callers see 503 with Retry-After, never a 500; everything they saw
// acknowledged is stored with exactly one event; the worker (webhooks,
// retention) carries on against the new leader; health says "failing over",
// then "ok"; the lost member comes back as the new leader's sync standby.
let database: HaFaultDatabase;
let server: AppServer;
let world: JoinWorld;
let receiver: WebhookReceiver;
let worker: ChildProcess;
let nodes: TestNode[];
let subscribedAt: Date;
const logFile = "test-results/faults-ha-failover.log";

beforeAll(async () => {
  database = await startHaFaultDatabase((line) => console.log(`[ha] ${line}`));
  world = await createJoinWorld();
  receiver = await startWebhookReceiver();
  subscribedAt = new Date();
  await createWebhookSubscription({ db: await getDb(), tenantId: world.tenantId, url: receiver.url, now: subscribedAt });
  server = await startAppServer({ databaseUrl: database.cluster.url, logFile, env: database.env });
  mkdirSync("test-results", { recursive: true });
  const workerLog = openSync("test-results/faults-ha-worker.log", "a");
  worker = spawnWorker({
    env: { ...process.env, ...database.env, BC_WEBHOOK_ALLOW_PRIVATE: "1", BC_WEBHOOK_POLL_MS: "100", BC_RETENTION_INTERVAL_SECONDS: "1" },
    stdio: ["ignore", workerLog, workerLog],
  });
  nodes = await inParallel(
    Array.from({ length: 50 }, () => world),
    8,
    () => admitNodeAt(server.baseUrl, world),
  );
}, 240_000);
afterAll(async () => {
  worker?.kill("SIGKILL");
  await server?.stop();
  await receiver?.close();
  await database?.cluster.stop();
});

const APPROVALS = 90;
const REJECTIONS = 60;
const JOINS = 40;

type Work =
  | { kind: "approve"; requestId: string }
  | { kind: "reject"; requestId: string }
  | { kind: "join"; machine: Awaited<ReturnType<typeof makeMachine>> }
  | { kind: "report"; node: TestNode };

it("the leader lost under load: Patroni promotes the sync standby, no 500, nothing acknowledged lost or applied twice", async () => {
  const requestIds = await makeRequests(world, APPROVALS + REJECTIONS, { poolId: world.pools.a });
  const machines = await Promise.all(Array.from({ length: JOINS }, () => makeMachine()));
  const work: Work[] = [];
  for (let i = 0; i < requestIds.length; i++) {
    work.push(i < APPROVALS ? { kind: "approve", requestId: requestIds[i]! } : { kind: "reject", requestId: requestIds[i]! });
    if (i < JOINS) work.push({ kind: "join", machine: machines[i]! });
    if (i < nodes.length * 2) work.push({ kind: "report", node: nodes[i % nodes.length]! });
  }
  const { leader, standby } = await database.cluster.waitUntilHealthy();
  const tally = new Tally("ha failover (leader killed)");
  let killedAt = 0;
  let firstAnswerAfterKill = 0;
  let health: ReturnType<typeof watchHealth> | undefined;
  // the first 2xx to a call sent after the kill: how long writers were without a leader
  const timed = (call: () => Promise<Response>) => async () => {
    const sentAt = Date.now();
    const response = await call();
    if (killedAt && sentAt > killedAt && response.ok && !firstAnswerAfterKill) firstAnswerAfterKill = Date.now();
    return response;
  };

  const answers = await inParallel(work, 16, async (item, index) => {
    if (index === Math.floor(work.length / 4)) {
      killedAt = Date.now();
      database.cluster.killMember(leader);
      health = watchHealth(server.baseUrl);
    }
    const body = { tenantId: world.tenantId, poolId: world.pools.a };
    if (item.kind === "approve")
      return callUntilAnswered(
        tally,
        timed(
          postMethod(server.baseUrl, "joinRequests/approve", world.keys.admin, { ...body, requestId: item.requestId, ttlSeconds: 3600 }),
        ),
      );
    if (item.kind === "reject")
      return callUntilAnswered(
        tally,
        timed(
          postMethod(server.baseUrl, "joinRequests/reject", world.keys.admin, {
            ...body,
            requestId: item.requestId,
            reason: "ha fault suite",
          }),
        ),
      );
    if (item.kind === "report") return callUntilAnswered(tally, timed(reportInventoryAt(server.baseUrl, item.node)));
    const { machine } = item;
    return callUntilAnswered(
      tally,
      timed(() =>
        fetch(`${server.baseUrl}/api/compute/nodes/join`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${world.tokens.a}` },
          body: JSON.stringify(joinBody(machine)),
        }),
      ),
    );
  });
  const seenByHealth = await health!.untilOk(30_000);

  expect(await database.cluster.leader(), "Patroni promoted the sync standby").toBe(standby);
  expect(tally.unavailable, "the failover happened while calls were in flight").toBeGreaterThan(0);
  expect(tally.statuses.get(500) ?? 0, "500s").toBe(0);
  expect(tally.unavailableWithoutRetryAfter, "503s without Retry-After").toBe(0);
  expect(seenByHealth, "health during the failover").toContain("failing over");
  expect(seenByHealth.at(-1)).toBe("ok");

  // every call ended as it would have without the fault; each transition stored exactly once
  const expected = { approve: [200], reject: [200], join: [202], report: [200, 429] };
  work.forEach((item, index) => expect(expected[item.kind], `${item.kind} ${answers[index]!.text}`).toContain(answers[index]!.status));
  let eventsChecked = 0;
  for (const [i, requestId] of requestIds.entries()) {
    const outcome = i < APPROVALS ? "approved" : "rejected";
    expect((await storedRequest(requestId)).state, requestId).toBe(outcome);
    const types = await eventTypesOf(requestId);
    expect(
      types.filter((type) => /\.(approved|rejected)$/.test(type)),
      requestId,
    ).toEqual([expect.stringMatching(`\\.${outcome}$`)]);
    eventsChecked += types.length;
  }
  for (const machine of machines) {
    const requests = await requestsForCsr(csrSha256(machine.csr));
    expect(requests, `one request for ${machine.hostname}`).toHaveLength(1);
    expect((await eventTypesOf(requests[0]!.id)).filter((type) => type.endsWith(".created"))).toHaveLength(1);
  }
  const snapshots = await (
    await getDb()
  ).inventorySnapshot.groupBy({ by: ["nodeId"], where: { nodeId: { in: nodes.map((node) => node.nodeId) } } });
  expect(snapshots, "every node's inventory stored").toHaveLength(nodes.length);

  const failoverSeconds = (firstAnswerAfterKill - killedAt) / 1000;
  tally.print({ approvals: APPROVALS, rejections: REJECTIONS, joins: JOINS, reports: nodes.length * 2, eventsChecked });
  console.log(
    `[faults] ha failover: killed ${leader}, promoted ${standby}; first 2xx after the kill ${failoverSeconds.toFixed(1)} s; health: ${seenByHealth.join(" → ")}`,
  );
  expect(failoverSeconds, "seconds without a leader").toBeLessThan(30);
}, 240_000);

it("the worker carries on against the new leader: retention marks an expired request, every event since the subscription is delivered", async () => {
  const expired = await makeRequest(world, { poolId: world.pools.a, outcome: "expired" });
  await expect.poll(async () => (await storedRequest(expired)).state, { timeout: 30_000, interval: 500 }).toBe("expired");
  const events = await (
    await getDb()
  ).event.findMany({ where: { tenantId: world.tenantId, occurredAt: { gte: subscribedAt } }, select: { id: true } });
  const ids = new Set(events.map((event) => event.id));
  await receiver.waitFor(() => new Set(receiver.delivered().filter((id) => ids.has(id))).size === ids.size, 90_000);
  console.log(`[faults] ha failover: webhooks delivered for ${ids.size} events across the failover`);
}, 150_000);

it("the lost member comes back as the new leader's sync standby (patronictl list)", async () => {
  const current = (await database.cluster.leader())!;
  const lost = current === "pg1" ? "pg2" : "pg1";
  database.cluster.startMember(lost);
  const startedAt = Date.now();
  expect(await database.cluster.waitUntilHealthy(90_000)).toEqual({ leader: current, standby: lost });
  const list = await database.cluster.patronictlList();
  console.log(`[faults] ha failover: ${lost} rejoined as sync standby in ${((Date.now() - startedAt) / 1000).toFixed(1)} s\n${list}`);
  expect(list).toMatch(new RegExp(`${lost}\\s.*Sync Standby`));
}, 120_000);
