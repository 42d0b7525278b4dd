import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { env } from "@/server/env";
import { signatureVerifies, type WebhookReceiver } from "@/test/api/webhook-receiver";
import { deliveriesOf, startTestWorker, stoppedAfterEachTest } from "@/test/api/webhook-world";
import { createWorld, makeRequest } from "@/test/api/world";
import { chatSchemaIssues } from "@/test/chat-schemas/chat-schemas";
import { consoleLink, requestPagePath } from "@/lib/url/console-paths";
import type { ChatFormat } from "@/lib/webhooks/webhook-format";
import { createWebhookSubscription } from "./webhook-subscriptions";
import { setWebhookFormat } from "./set-webhook-format";

// Chat formats through the real worker, to receivers on loopback: the same
// delivery (retries, SSRF guard, delivery log) as signed webhooks, a body each
// chat service documents.
const { receiver, track } = stoppedAfterEachTest();
const FORMATS: ChatFormat[] = ["slack", "teams", "google_chat", "mattermost"];

describe("chat-format deliveries", () => {
  it("one subscription per format: a deferral and an approval arrive as that service's documented message, linking to the request", async () => {
    const db = await getDb();
    const world = await createWorld();
    const receivers = new Map<ChatFormat, WebhookReceiver>();
    const secrets = new Map<ChatFormat, string>();
    for (const format of FORMATS) {
      const hooks = await receiver();
      receivers.set(format, hooks);
      const made = await createWebhookSubscription({
        db,
        tenantId: world.tenantId,
        url: hooks.url,
        format,
        now: new Date(Date.now() - 60_000),
      });
      secrets.set(format, made.secret);
    }
    // pending, then approved: `created` and `approved`
    const requestId = await makeRequest(world, { poolId: world.pools.a, outcome: "approved" });
    const request = await db.joinRequest.findUniqueOrThrow({ where: { id: requestId } });
    track(await startTestWorker(world));
    for (const hooks of receivers.values()) await hooks.waitFor((received) => received.length === 2);

    const link = consoleLink(env().NEXTAUTH_URL, requestPagePath(world.pools.a, requestId));
    for (const format of FORMATS) {
      const received = receivers.get(format)!.received;
      for (const webhook of received) {
        const body: unknown = JSON.parse(webhook.body);
        expect(chatSchemaIssues(format, body), `${format}: ${webhook.body}`).toEqual([]);
        expect(webhook.body, format).toContain(JSON.stringify(link).slice(1, -1));
        expect(webhook.body, format).toContain(request.hostname);
        expect(webhook.body, format).toContain(request.serialNumber);
        // signed as any webhook: the service ignores it, a relay may verify it
        expect(signatureVerifies(secrets.get(format)!, webhook)).toBe(true);
      }
      expect(received[0]!.body, format).toContain("asks to join and waits for a decision");
      expect(received[1]!.body, format).toContain("was approved to join");
    }
  });

  it("a chat receiver's failure is retried and logged like any webhook's; a subscription switched to slack by set-format is sent Slack's message", async () => {
    const db = await getDb();
    const world = await createWorld();
    const hooks = await receiver((_id, nth) => (nth === 0 ? 500 : 200));
    const made = await createWebhookSubscription({ db, tenantId: world.tenantId, url: hooks.url, now: new Date(Date.now() - 60_000) });
    await setWebhookFormat({ db, tenantId: world.tenantId, id: made.id, format: "slack" });
    await makeRequest(world, { poolId: world.pools.a });
    track(await startTestWorker(world));
    await hooks.waitFor((received) => received.length === 2);
    for (const webhook of hooks.received) expect(chatSchemaIssues("slack", JSON.parse(webhook.body))).toEqual([]);
    await expect.poll(async () => (await deliveriesOf(made.id))[0]?.status).toBe("delivered");
    const [delivery] = await deliveriesOf(made.id);
    expect(delivery!.attemptLog.map((attempt) => attempt.statusCode)).toEqual([500, 200]);
  });

  it("the SSRF guard holds for chat formats: a private address is refused when subscribing", async () => {
    const world = await createWorld();
    const subscribe = createWebhookSubscription({
      db: await getDb(),
      tenantId: world.tenantId,
      url: "https://10.0.0.1/hooks",
      format: "slack",
      now: new Date(),
      allowPrivate: false,
    });
    await expect(subscribe).rejects.toThrow(/private address/);
  });
});
