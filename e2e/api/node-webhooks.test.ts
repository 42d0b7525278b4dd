import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { createWebhookSubscription } from "@/server/webhooks/webhook-subscriptions";
import type { BackgroundWorker } from "@/server/workers/background-worker";
import { callMethod } from "@/test/api/api-client";
import { createJoinWorld, type JoinWorld } from "@/test/api/machine";
import { admitNode, callAsNode } from "@/test/api/node";
import { signatureVerifies, startWebhookReceiver, type WebhookReceiver } from "@/test/api/webhook-receiver";
import { startTestWorker } from "@/test/api/webhook-world";

// SPEC D3: node events go through the same outbox and webhooks as the requests'.
let world: JoinWorld;
let receiver: WebhookReceiver;
let worker: BackgroundWorker | undefined;
beforeAll(async () => {
  world = await createJoinWorld();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

it("a node's joined, inventory-changed and revoked events are delivered to a subscription of those types, signed", async () => {
  const types = ["compute.node.joined", "compute.node.inventory-changed", "compute.node.revoked"];
  const subscription = await createWebhookSubscription({
    db: await getDb(),
    tenantId: world.tenantId,
    url: receiver.url,
    eventTypes: types,
    now: new Date(),
  });
  const node = await admitNode(world);
  const sections = { os: { name: "Ubuntu", version: "22.04.4 LTS", kernel: "5.15.0-105-generic", arch: "x86_64" } };
  expect((await callAsNode("inventory/report", { sections }, node)).status).toBe(200);
  expect(
    (await callMethod("nodes/revoke", { tenantId: world.tenantId, nodeId: node.nodeId, reason: "retired" }, { bearer: world.keys.admin }))
      .status,
  ).toBe(200);

  worker = await startTestWorker(world);
  await receiver.waitFor((received) => received.filter((webhook) => webhook.status === 200).length >= 3, 20_000);
  const bodies = receiver.received.map((webhook) => JSON.parse(webhook.body) as { type: string; data: { nodeId: string } });
  expect(bodies.map((body) => body.type).sort()).toEqual([...types].sort());
  expect(bodies.every((body) => body.data.nodeId === node.nodeId)).toBe(true);
  for (const webhook of receiver.received) expect(signatureVerifies(subscription.secret, webhook)).toBe(true);
}, 60_000);
