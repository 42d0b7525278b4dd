import { afterAll, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { newId } from "@/lib/ids";
import { startWebhookReceiver } from "@/test/api/webhook-receiver";
import { startTestWorker, webhookWorld } from "@/test/api/webhook-world";
import type { BackgroundWorker } from "@/server/workers/background-worker";

// Two workers over one outbox of 1,000 events: every event delivered, none twice.
const workers: BackgroundWorker[] = [];
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
});

it("two workers deliver 1,000 events (200 requests × 5) once each, in order per request", async () => {
  const hooks = await startWebhookReceiver();
  try {
    const { world, subscriptionId } = await webhookWorld(hooks.url);
    const db = await getDb();
    // The outbox as transitions leave it: 5 events per request, written in order.
    const now = new Date();
    const requestIds = Array.from({ length: 200 }, () => newId("jreq"));
    const events = Array.from({ length: 5 }, (_, step) =>
      requestIds.map((requestId) => ({
        id: newId("evt"),
        type: "security.join-request.created",
        occurredAt: now,
        tenantId: world.tenantId,
        siteId: world.siteId,
        poolId: world.pools.a,
        requestId,
        data: { requestId, siteId: world.siteId, poolId: world.pools.a, actor: "test", step },
      })),
    ).flat();
    await db.event.createMany({ data: events });

    const started = Date.now();
    workers.push(await startTestWorker(world, { concurrency: 8 }), await startTestWorker(world, { concurrency: 8 }));
    await hooks.waitFor((received) => received.length >= 1_000, 60_000);
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    console.info(`1,000 webhooks through two workers in ${Date.now() - started} ms`);

    const ids = hooks.received.map((webhook) => webhook.id);
    expect(ids).toHaveLength(1_000);
    expect(new Set(ids).size).toBe(1_000);
    expect(new Set(ids)).toEqual(new Set(events.map((event) => event.id)));
    // in order per request: each request's steps arrive 0, 1, 2, 3, 4
    const steps = new Map<string, number[]>();
    for (const webhook of hooks.received) {
      const { data } = JSON.parse(webhook.body) as { data: { requestId: string; step: number } };
      steps.set(data.requestId, [...(steps.get(data.requestId) ?? []), data.step]);
    }
    for (const sequence of steps.values()) expect(sequence).toEqual([0, 1, 2, 3, 4]);
    const counts = await db.webhookDelivery.groupBy({ by: ["status"], where: { subscriptionId }, _count: true, _sum: { attempts: true } });
    expect(counts).toEqual([{ status: "delivered", _count: 1_000, _sum: { attempts: 1_000 } }]);
  } finally {
    await hooks.close();
  }
}, 90_000);
