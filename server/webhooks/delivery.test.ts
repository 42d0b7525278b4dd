import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { signatureVerifies, type WebhookReceiver } from "@/test/api/webhook-receiver";
import { deliveriesOf, startTestWorker, stoppedAfterEachTest, tenantEvents, webhookWorld } from "@/test/api/webhook-world";
import { makeRequest, makeRequests } from "@/test/api/world";
import { claimDeliveries } from "./claim-deliveries";
import { enqueueDeliveries } from "./enqueue-deliveries";
import { listWebhookSubscriptions } from "./webhook-subscriptions";

// The delivery worker against real PostgreSQL and a receiver on loopback.
const { receiver, track } = stoppedAfterEachTest();
const count = (ids: string[], id: string) => ids.filter((each) => each === id).length;

describe("a delivery", () => {
  it("POSTs {id, type, occurredAt, tenantId, data} with webhook-id, webhook-timestamp and a v1 signature that verifies", async () => {
    const hooks = await receiver();
    const { world, secret, subscriptionId } = await webhookWorld(hooks.url);
    const requestId = await makeRequest(world, { poolId: world.pools.a });
    const before = Math.floor(Date.now() / 1000);
    track(await startTestWorker(world));
    await hooks.waitFor((received) => received.length === 1);

    const [event] = await tenantEvents(world.tenantId);
    const [webhook] = hooks.received;
    expect(webhook!.id).toBe(event!.id);
    expect(Number(webhook!.timestamp)).toBeGreaterThanOrEqual(before);
    expect(Number(webhook!.timestamp)).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect(webhook!.signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(signatureVerifies(secret, webhook!)).toBe(true);
    expect(signatureVerifies(secret, { ...webhook!, body: `${webhook!.body} ` })).toBe(false);
    expect(JSON.parse(webhook!.body)).toEqual({
      id: event!.id,
      type: "security.join-request.created",
      occurredAt: event!.occurredAt.toISOString(),
      tenantId: world.tenantId,
      data: event!.data,
    });
    expect(Object.keys(JSON.parse(webhook!.body))).toEqual(["id", "type", "occurredAt", "tenantId", "data"]);
    expect((JSON.parse(webhook!.body) as { data: { requestId: string } }).data.requestId).toBe(requestId);

    const [delivery] = await waitForDeliveries(subscriptionId, 1);
    expect(delivery).toMatchObject({ status: "delivered", attempts: 1 });
    expect(delivery!.attemptLog).toHaveLength(1);
    expect(delivery!.attemptLog[0]).toMatchObject({ statusCode: 200, error: null });
    expect(delivery!.attemptLog[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("a receiver that fails twice then succeeds gets the event exactly once more after the failures; every attempt is recorded", async () => {
    const hooks = await receiver((_id, nth) => [500, 503][nth] ?? 200);
    const { world, subscriptionId } = await webhookWorld(hooks.url);
    await makeRequest(world, { poolId: world.pools.a });
    track(await startTestWorker(world));
    await hooks.waitFor(() => hooks.delivered().length === 1);
    await new Promise((resolve) => setTimeout(resolve, 300)); // nothing more comes

    const [event] = await tenantEvents(world.tenantId);
    expect(hooks.received.map((webhook) => [webhook.id, webhook.status])).toEqual([
      [event!.id, 500],
      [event!.id, 503],
      [event!.id, 200],
    ]);
    const [delivery] = await waitForDeliveries(subscriptionId, 1);
    expect(delivery).toMatchObject({ status: "delivered", attempts: 3 });
    expect(delivery!.attemptLog.map((attempt) => [attempt.statusCode, attempt.error])).toEqual([
      [500, "HTTP 500"],
      [503, "HTTP 503"],
      [200, null],
    ]);
    // retried after a backoff, not at once
    const times = delivery!.attemptLog.map((attempt) => attempt.at.getTime());
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(10);
    const [subscription] = await listWebhookSubscriptions({ db: await getDb(), tenantIds: [world.tenantId] });
    expect(subscription).toMatchObject({ consecutiveFailures: 0, failingSince: null, lastError: null, health: { kind: "healthy" } });
  });

  it("a receiver that does not answer in time is a failure (timeout), retried", async () => {
    const hooks = await receiver((_id, nth) => (nth === 0 ? { hang: true } : 204));
    const { world, subscriptionId } = await webhookWorld(hooks.url);
    await makeRequest(world, { poolId: world.pools.a });
    track(await startTestWorker(world, { timeoutMs: 300 }));
    await hooks.waitFor(() => hooks.delivered().length === 1);
    const [delivery] = await waitForDeliveries(subscriptionId, 1);
    expect(delivery!.attemptLog.map((attempt) => [attempt.statusCode, attempt.error])).toEqual([
      [null, "timeout after 300 ms"],
      [204, null],
    ]);
    expect(delivery!.attemptLog[0]!.durationMs).toBeGreaterThanOrEqual(290);
  });

  it("an unreachable receiver is a failure naming the network error", async () => {
    const hooks = await receiver();
    await hooks.close(); // nothing listens on its port any more
    const { world, subscriptionId } = await webhookWorld(hooks.url);
    await makeRequest(world, { poolId: world.pools.a });
    track(await startTestWorker(world));
    const deadline = Date.now() + 10_000;
    let errors: (string | null)[] = [];
    while (errors.length === 0 && Date.now() < deadline) {
      errors = (await deliveriesOf(subscriptionId)).flatMap((delivery) => delivery.attemptLog.map((attempt) => attempt.error));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(errors[0]).toMatch(/ECONNREFUSED/);
  });

  it("only the subscribed event types are delivered", async () => {
    const hooks = await receiver();
    const { world, subscriptionId } = await webhookWorld(hooks.url, ["security.join-request.approved"]);
    await makeRequest(world, { poolId: world.pools.a, outcome: "consumed" });
    track(await startTestWorker(world));
    await hooks.waitFor(() => hooks.delivered().length === 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hooks.received.map((webhook) => (JSON.parse(webhook.body) as { type: string }).type)).toEqual([
      "security.join-request.approved",
    ]);
    expect(await deliveriesOf(subscriptionId)).toHaveLength(1);
  });
});

describe("at least once, in order per join request", () => {
  it("stopping a worker while the receiver hangs finishes that attempt; a new worker delivers everything, duplicating none", async () => {
    let hangFirst = true;
    const hooks = await receiver(() => {
      if (hangFirst) {
        hangFirst = false;
        return { hang: true };
      }
      return 200;
    });
    const { world, subscriptionId } = await webhookWorld(hooks.url);
    await makeRequests(world, 3, { poolId: world.pools.a, outcome: "consumed" });
    const events = await tenantEvents(world.tenantId);
    expect(events).toHaveLength(9);

    const first = await startTestWorker(world, { timeoutMs: 1_000 });
    await hooks.waitFor((received) => received.length >= 1);
    const hung = hooks.received[0]!.id;
    await first.stop(); // returns once the hanging attempt has timed out and been recorded
    const attemptsOfHung = (await deliveriesOf(subscriptionId)).find((delivery) => delivery.eventId === hung)!.attemptLog;
    expect(attemptsOfHung.map((attempt) => attempt.error)).toEqual(["timeout after 1000 ms"]);
    const sentWhileStopped = hooks.received.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hooks.received.length).toBe(sentWhileStopped); // a stopped worker sends nothing

    track(await startTestWorker(world));
    await hooks.waitFor(() => new Set(hooks.delivered()).size === events.length);
    const ids = hooks.received.map((webhook) => webhook.id);
    for (const event of events) expect(count(ids, event.id), event.type).toBe(event.id === hung ? 2 : 1);
    expectInOrderPerRequest(hooks, events);
  });

  it("a worker that dies mid-attempt leaves its claim to run out; then another delivers it", async () => {
    const hooks = await receiver();
    const { world, subscriptionId } = await webhookWorld(hooks.url);
    await makeRequest(world, { poolId: world.pools.a });
    const db = await getDb();
    await enqueueDeliveries({ db, now: new Date(), tenantId: world.tenantId });
    // the dead worker's claim: a lease of 300 ms, never sent, never recorded
    const now = new Date();
    const claimed = await claimDeliveries({ db, now, leaseUntil: new Date(now.getTime() + 300), limit: 10, tenantId: world.tenantId });
    expect(claimed).toHaveLength(1);

    const claimedAt = Date.now();
    track(await startTestWorker(world));
    await hooks.waitFor(() => hooks.delivered().length === 1);
    expect(hooks.received[0]!.at - claimedAt).toBeGreaterThanOrEqual(250);
    expect((await waitForDeliveries(subscriptionId, 1))[0]).toMatchObject({ status: "delivered", attempts: 2 });
  });

  it("under retries, a request's later event is never sent before its earlier one is delivered", async () => {
    let n = 0;
    const hooks = await receiver(() => (n++ % 3 === 0 ? 500 : 200)); // every third POST fails
    const { world } = await webhookWorld(hooks.url);
    await makeRequests(world, 8, { poolId: world.pools.a, outcome: "consumed" });
    const events = await tenantEvents(world.tenantId);
    track(await startTestWorker(world, { concurrency: 6 }));
    await hooks.waitFor(() => new Set(hooks.delivered()).size === events.length, 30_000);
    expectInOrderPerRequest(hooks, events);
    expect(hooks.received.some((webhook) => webhook.status === 500)).toBe(true);
  });

  it("a delivery that keeps failing is dead after the give-up time; the subscription reads failing, then the request's next event goes", async () => {
    const failing = new Set<string>();
    const hooks = await receiver((id) => (failing.has(id) ? 500 : 200));
    const { world, subscriptionId } = await webhookWorld(hooks.url);
    await makeRequest(world, { poolId: world.pools.a, outcome: "approved" });
    const [created, approved] = await tenantEvents(world.tenantId);
    failing.add(created!.id);
    // A clock the test moves: each step is past the last backoff (≤ 1 s); give up after 10 s.
    let clock = Date.now();
    track(await startTestWorker(world, { clock: () => new Date(clock), policy: { baseMs: 1_000, capMs: 1_000, giveUpAfterMs: 10_000 } }));
    const db = await getDb();
    const health = async () => (await listWebhookSubscriptions({ db, tenantIds: [world.tenantId] }))[0]!;

    for (let failures = 1; failures <= 5; failures++) {
      await hooks.waitFor((received) => received.length === failures);
      await waitUntil(async () => (await health()).consecutiveFailures === failures);
      if (failures < 5) expect((await health()).health).toEqual({ kind: "healthy" });
      clock += 1_100;
    }
    const failingNow = await health();
    expect(failingNow.health.kind).toBe("failing");
    expect(failingNow.failingSince!.getTime()).toBe((await deliveriesOf(subscriptionId))[0]!.attemptLog[0]!.at.getTime());
    expect(failingNow.lastError).toBe("HTTP 500");
    expect(hooks.received.every((webhook) => webhook.id === created!.id)).toBe(true); // the approval waits

    clock += 10_000; // past the give-up time: the next failure is the last
    await hooks.waitFor(() => hooks.delivered().includes(approved!.id));
    const deliveries = await waitForDeliveries(subscriptionId, 2);
    expect(deliveries.map((delivery) => [delivery.eventId, delivery.status])).toEqual([
      [created!.id, "dead"],
      [approved!.id, "delivered"],
    ]);
    expect(deliveries[0]!.attempts).toBe(6);
    await waitUntil(async () => (await health()).consecutiveFailures === 0);
    expect((await health()).health).toEqual({ kind: "healthy" });
  });
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The deliveries once `n` of them are recorded done (delivered or dead). */
async function waitForDeliveries(subscriptionId: string, n: number) {
  let deliveries = await deliveriesOf(subscriptionId);
  await waitUntil(async () => {
    deliveries = await deliveriesOf(subscriptionId);
    return deliveries.filter((delivery) => delivery.status !== "pending").length >= n;
  });
  return deliveries;
}

/**
 * For each join request, every POST of one of its events comes after the
 * successful POST of each earlier event of it (delivered before the next is sent).
 */
function expectInOrderPerRequest(hooks: WebhookReceiver, events: { id: string; requestId: string | null }[]): void {
  const requestOf = new Map(events.map((event) => [event.id, event.requestId]));
  const deliveredSoFar = new Set<string>();
  for (const webhook of hooks.received) {
    const requestId = requestOf.get(webhook.id);
    const earlier = events.filter((event) => event.requestId === requestId && event.id < webhook.id);
    for (const event of earlier) expect(deliveredSoFar.has(event.id), `${event.id} delivered before ${webhook.id} was sent`).toBe(true);
    if (webhook.status !== null && webhook.status < 300) deliveredSoFar.add(webhook.id);
  }
}
