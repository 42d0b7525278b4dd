import type { ChildProcess } from "node:child_process";
import { mkdirSync, openSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { createWebhookSubscription } from "@/server/webhooks/webhook-subscriptions";
import { createJoinWorld, type JoinWorld } from "@/test/api/machine";
import type { TestNode } from "@/test/api/node";
import { startWebhookReceiver, type WebhookReceiver } from "@/test/api/webhook-receiver";
import { makeRequest, storedRequest } from "@/test/api/world";
import { inParallel, Tally } from "@/test/faults/fault-harness";
import { admitNodeAt, startHaFaultDatabase, type HaFaultDatabase } from "@/test/faults/ha-fault-setup";
import { watchHealth, type HealthWatch } from "@/test/harness/ha-health-watch";
import { drive, expectEachOutcomeOnce, makeLoad } from "@/test/faults/ha-load";
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
// Then a planned switchover under the same kind of load, with the same checks.
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
    16,
    () => admitNodeAt(server.baseUrl, world),
  );
}, 240_000);
afterAll(async () => {
  worker?.kill("SIGKILL");
  await server?.stop();
  await receiver?.close();
  await database?.cluster.stop();
});

it("the leader lost under load: Patroni promotes the sync standby, no 500, nothing acknowledged lost or applied twice", async () => {
  const load = await makeLoad(world, { approvals: 64, rejections: 32, joins: 32, reports: nodes });
  const { leader, standby } = await database.cluster.waitUntilHealthy();
  const tally = new Tally("ha failover (leader killed)");
  let health: HealthWatch | undefined;
  const driven = await drive(server.baseUrl, world, load, tally, () => {
    database.cluster.killMember(leader);
    health = watchHealth(server.baseUrl);
  });
  const seenByHealth = await health!.untilOk(30_000);

  expect(await database.cluster.leader(), "Patroni promoted the sync standby").toBe(standby);
  const eventsChecked = await expectEachOutcomeOnce(load, driven, tally);
  expect(seenByHealth, "health during the failover").toContain("failing over");
  expect(seenByHealth.at(-1)).toBe("ok");
  tally.print({ work: load.work.length, eventsChecked });
  console.log(
    `[faults] ha failover: killed ${leader}, promoted ${standby}; first 2xx after the kill ${driven.secondsWithoutLeader.toFixed(1)} s; ` +
      `health: ${seenByHealth.join(" → ")}`,
  );
  expect(driven.secondsWithoutLeader, "seconds without a leader").toBeLessThan(30);
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

it("a switchover (patronictl switchover's REST call) under load: the same checks, the old leader a sync standby after", async () => {
  const { leader, standby } = await database.cluster.waitUntilHealthy();
  const load = await makeLoad(world, { approvals: 24, rejections: 12, joins: 12, reports: nodes.slice(0, 25) });
  const tally = new Tally("ha switchover");
  let switched: Promise<void> | undefined;
  const driven = await drive(server.baseUrl, world, load, tally, () => (switched = database.cluster.switchover(leader, standby)));
  await switched;
  const eventsChecked = await expectEachOutcomeOnce(load, driven, tally);
  expect(await database.cluster.waitUntilHealthy(60_000)).toEqual({ leader: standby, standby: leader });
  tally.print({ work: load.work.length, eventsChecked });
  console.log(`[faults] ha switchover: ${leader} → ${standby}; first 2xx after it began ${driven.secondsWithoutLeader.toFixed(1)} s`);
}, 180_000);
