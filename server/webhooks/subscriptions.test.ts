import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/server/db/client";
import { startWebhookReceiver, signatureVerifies } from "@/test/api/webhook-receiver";
import { deliveriesOf, startTestWorker, webhookWorld } from "@/test/api/webhook-world";
import { createWorld, makeRequest } from "@/test/api/world";
import { enqueueDeliveries } from "./enqueue-deliveries";
import { openWebhookKey, webhookSecretKey } from "./webhook-secret";
import {
  createWebhookSubscription,
  deleteWebhookSubscription,
  listWebhookSubscriptions,
  rotateWebhookSecret,
  WebhookSubscriptionError,
} from "./webhook-subscriptions";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe("webhook subscriptions", () => {
  it("create returns a whsec_ secret once; the database holds it encrypted; listings and logs never show it", async () => {
    const logged: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (logged.push(String(chunk)), true));
    const db = await getDb();
    const world = await createWorld();
    const created = await createWebhookSubscription({ db, tenantId: world.tenantId, url: "https://hooks.example.com/bc", now: new Date() });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.id).toMatch(/^whsub_[0-9a-hjkmnp-tv-z]{26}$/);
    const key = webhookSecretKey(created.secret);
    expect(key).toHaveLength(32);

    const row = await db.webhookSubscription.findUniqueOrThrow({ where: { id: created.id } });
    expect(Buffer.from(row.secretEncrypted).includes(key)).toBe(false);
    expect(await openWebhookKey(created.id, row.secretEncrypted)).toEqual(key);

    const [listed] = await listWebhookSubscriptions({ db, tenantIds: [world.tenantId] });
    expect(Object.keys(listed!)).not.toContain("secret");
    expect(JSON.stringify(listed)).not.toContain(key.toString("base64"));
    expect(listed).toMatchObject({
      url: "https://hooks.example.com/bc",
      eventTypes: [],
      consecutiveFailures: 0,
      health: { kind: "healthy" },
    });
    expect(logged.join("")).not.toContain(key.toString("base64"));
  });

  it("refuses a URL that is not http(s) or carries a password, an unknown event type, an unknown tenant", async () => {
    const db = await getDb();
    const world = await createWorld();
    const attempt = (url: string, eventTypes: string[] = [], tenantId = world.tenantId) =>
      createWebhookSubscription({ db, tenantId, url, eventTypes, now: new Date() });
    await expect(attempt("ftp://example.com/x")).rejects.toThrow(WebhookSubscriptionError);
    await expect(attempt("not a url")).rejects.toThrow(/not a URL/);
    await expect(attempt("https://user:pw@example.com/")).rejects.toThrow(/password/);
    await expect(attempt("https://example.com/", ["security.join-request.bogus"])).rejects.toThrow(/unknown event type/);
    await expect(attempt("https://example.com/", [], "no-such-tenant")).rejects.toThrow(/not found/);
  });

  it("rotate-secret: the new secret signs; the previous one too until its grace ends", async () => {
    const hooks = await startWebhookReceiver();
    cleanup.push(() => hooks.close());
    const { world, subscriptionId, secret: oldSecret } = await webhookWorld(hooks.url);
    const db = await getDb();
    const rotated = await rotateWebhookSecret({ db, tenantId: world.tenantId, id: subscriptionId, graceSeconds: 3600, now: new Date() });
    expect(rotated.secret).not.toBe(oldSecret);
    const worker = await startTestWorker(world);
    cleanup.push(() => worker.stop());
    await makeRequest(world, { poolId: world.pools.a });
    await hooks.waitFor((received) => received.length === 1);
    const [during] = hooks.received;
    expect(during!.signature.split(" ")).toHaveLength(2);
    expect(signatureVerifies(rotated.secret, during!)).toBe(true);
    expect(signatureVerifies(oldSecret, during!)).toBe(true);

    const again = await rotateWebhookSecret({ db, tenantId: world.tenantId, id: subscriptionId, graceSeconds: 0, now: new Date() });
    await makeRequest(world, { poolId: world.pools.a });
    await hooks.waitFor((received) => received.length === 2);
    const after = hooks.received[1]!;
    expect(after.signature.split(" ")).toHaveLength(1);
    expect(signatureVerifies(again.secret, after)).toBe(true);
    expect(signatureVerifies(rotated.secret, after)).toBe(false);
  });

  it("delete removes the subscription with its deliveries and attempts, within its tenant only", async () => {
    const db = await getDb();
    const { world, subscriptionId } = await webhookWorld("http://127.0.0.1:9/never");
    await makeRequest(world, { poolId: world.pools.a });
    await enqueueDeliveries({ db, now: new Date(), tenantId: world.tenantId });
    expect(await deliveriesOf(subscriptionId)).toHaveLength(1);
    await expect(deleteWebhookSubscription({ db, tenantId: world.other.tenantId, id: subscriptionId })).rejects.toThrow(/not found/);
    await deleteWebhookSubscription({ db, tenantId: world.tenantId, id: subscriptionId });
    expect(await deliveriesOf(subscriptionId)).toHaveLength(0);
    expect(await listWebhookSubscriptions({ db, tenantIds: [world.tenantId] })).toEqual([]);
  });

  it("a delete racing a worker that records an attempt waits for the worker instead of deadlocking with it", async () => {
    const db = await getDb();
    const { world, subscriptionId } = await webhookWorld("http://127.0.0.1:9/never");
    await makeRequest(world, { poolId: world.pools.a });
    await enqueueDeliveries({ db, now: new Date(), tenantId: world.tenantId });
    const [delivery] = await deliveriesOf(subscriptionId);
    // recordAttempt's locks, by hand and held: the delivery's row first, the subscription's after
    const worker = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await worker.connect();
    cleanup.push(() => worker.end());
    await worker.query("BEGIN");
    await worker.query("UPDATE webhook_deliveries SET last_attempt_at = now() WHERE id = $1", [delivery!.id]);
    const deleting = deleteWebhookSubscription({ db, tenantId: world.tenantId, id: subscriptionId });
    await waitForBackendWaitingOnLock(worker);
    await worker.query("UPDATE webhook_subscriptions SET consecutive_failures = consecutive_failures + 1 WHERE id = $1", [subscriptionId]);
    await worker.query("COMMIT");
    await deleting;
    expect(await deliveriesOf(subscriptionId)).toHaveLength(0);
    expect(await listWebhookSubscriptions({ db, tenantIds: [world.tenantId] })).toEqual([]);
  });

  it("a subscription receives the events from its creation on, not the tenant's earlier ones", async () => {
    const db = await getDb();
    const world = await createWorld();
    await makeRequest(world, { poolId: world.pools.a });
    const created = await createWebhookSubscription({
      db,
      tenantId: world.tenantId,
      url: "http://127.0.0.1:9/x",
      now: new Date(Date.now() + 5),
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    await makeRequest(world, { poolId: world.pools.a });
    await enqueueDeliveries({ db, now: new Date(), tenantId: world.tenantId });
    expect(await deliveriesOf(created.id)).toHaveLength(1);
  });
});

/** Until another session of this database waits on a lock (the delete, behind the worker's row). */
async function waitForBackendWaitingOnLock(client: pg.Client): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    const { rows } = await client.query(
      "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
    );
    if (rows.length) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("no session waited on a lock within 5 s");
}
