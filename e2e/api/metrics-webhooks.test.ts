import { afterAll, beforeAll, expect, it } from "vitest";
import { processMetrics } from "@/server/metrics/process-metrics";
import type { BackgroundWorker } from "@/server/workers/background-worker";
import { sample, scrape } from "@/test/api/metrics-scrape";
import { startWebhookReceiver, type WebhookReceiver } from "@/test/api/webhook-receiver";
import { startTestWorker, webhookWorld } from "@/test/api/webhook-world";
import { makeRequest, type World } from "@/test/api/world";

// Issue 19: the webhook backlog gauge grows while the receiver is down and
// returns to 0 once it recovers. The gauge is read from the database by the
// shared server at scrape time, per tenant, so this world's series is its own;
// the delivery worker runs here, on this tenant only (webhook-world.ts).

let receiver: WebhookReceiver;
let worker: BackgroundWorker;
let world: World;
let down = true;

beforeAll(async () => {
  receiver = await startWebhookReceiver(() => (down ? 503 : 200));
  ({ world } = await webhookWorld(receiver.url));
  worker = await startTestWorker(world);
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

const backlog = async () => {
  const families = await scrape();
  const tenant = { tenant: world.tenantId };
  return {
    count: sample(families, "bc_webhook_backlog", tenant),
    age: sample(families, "bc_webhook_oldest_undelivered_age_seconds", tenant),
  };
};
const delivered = async (result: string) =>
  (await processMetrics().webhookDeliveries.get()).values.find((v) => v.labels.result === result)?.value ?? 0;
// The counters are this process's, which other test files' workers share
// (vitest.config.ts): this file counts what changed since it began.
const before = { retry: 0, delivered: 0 };
const deliveries = async (result: keyof typeof before) => (await delivered(result)) - before[result];

it("the backlog grows while the receiver answers 503, and is 0 once it recovers", async () => {
  before.retry = await delivered("retry");
  before.delivered = await delivered("delivered");
  expect(await backlog()).toEqual({ count: 0, age: 0 });

  await makeRequest(world, { poolId: world.pools.a });
  await expect.poll(async () => (await backlog()).count, { timeout: 20_000 }).toBe(1);
  await makeRequest(world, { poolId: world.pools.a });
  await expect.poll(async () => (await backlog()).count, { timeout: 20_000 }).toBe(2);
  await receiver.waitFor((received) => received.filter((entry) => entry.status === 503).length >= 2);
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  expect((await backlog()).age, "the oldest undelivered event's age").toBeGreaterThanOrEqual(1);
  expect(await deliveries("retry")).toBeGreaterThanOrEqual(2);
  expect(await deliveries("delivered")).toBe(0);

  down = false;
  await expect.poll(backlog, { timeout: 20_000 }).toEqual({ count: 0, age: 0 });
  expect(await deliveries("delivered")).toBe(2);
});
