import { randomBytes } from "node:crypto";
import { afterEach } from "vitest";
import { getDb } from "@/server/db/client";
import { createWebhookSubscription } from "@/server/webhooks/webhook-subscriptions";
import { startDeliveryWorker, type DeliveryWorkerOptions } from "@/server/webhooks/delivery-worker";
import type { BackgroundWorker } from "@/server/workers/background-worker";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver";
import { createWorld, type World } from "./world";

// Webhook tests share the test database with everything else: each makes its
// own tenant (createWorld) and runs its own delivery workers limited to it.

// Secrets are encrypted under the CA key; `npm test` sets one, a lone vitest run gets its own.
process.env.BC_CA_KEY_ENCRYPTION_KEY ??= randomBytes(32).toString("base64");

/** Retries in milliseconds, not minutes. */
export const FAST_POLICY = { baseMs: 20, capMs: 200, giveUpAfterMs: 60_000 };

export async function webhookWorld(
  url: string,
  eventTypes: string[] = [],
): Promise<{ world: World; subscriptionId: string; secret: string }> {
  const world = await createWorld();
  const subscription = await createWebhookSubscription({ db: await getDb(), tenantId: world.tenantId, url, eventTypes, now: new Date() });
  return { world, subscriptionId: subscription.id, secret: subscription.secret };
}

/** A delivery worker on this world's tenant only, polling fast. */
export async function startTestWorker(world: World, options: Partial<DeliveryWorkerOptions> = {}): Promise<BackgroundWorker> {
  return startDeliveryWorker({
    db: await getDb(),
    tenantId: world.tenantId,
    pollMs: 25,
    timeoutMs: 2_000,
    policy: FAST_POLICY,
    ...options,
  });
}

/** The tenant's events in id order (what must arrive). */
export async function tenantEvents(tenantId: string) {
  return (await getDb()).event.findMany({ where: { tenantId }, orderBy: { id: "asc" } });
}

export async function deliveriesOf(subscriptionId: string) {
  return (await getDb()).webhookDelivery.findMany({
    where: { subscriptionId },
    orderBy: { eventId: "asc" },
    include: { attemptLog: { orderBy: { id: "asc" } } },
  });
}

/**
 * Receivers and workers a test starts, closed and stopped after it (last
 * started first). Call once at a test file's top level: it registers the afterEach.
 */
export function stoppedAfterEachTest() {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  return {
    async receiver(answer?: Parameters<typeof startWebhookReceiver>[0]): Promise<WebhookReceiver> {
      const started = await startWebhookReceiver(answer);
      cleanup.push(() => started.close());
      return started;
    },
    track(worker: BackgroundWorker): BackgroundWorker {
      cleanup.push(() => worker.stop());
      return worker;
    },
  };
}
