import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { createWorld } from "@/test/api/world";
import { MAX_RESPONSE_BYTES, sendWebhook } from "./send-webhook";
import { createWebhookSubscription, WebhookSubscriptionError } from "./webhook-subscriptions";
import { blockedAddressReason, checkWebhookTarget } from "./webhook-target";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A loopback server answering every request with `handle`; counts the requests it got. */
async function server(handle: http.RequestListener) {
  let requests = 0;
  const listening = http.createServer((request, response) => (requests++, handle(request, response)));
  await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => (listening.closeAllConnections(), listening.close(() => resolve()))));
  return { port: (listening.address() as AddressInfo).port, requests: () => requests };
}

const event = { id: "evt_1", type: "security.join-request.created", occurredAt: new Date().toISOString(), tenantId: "t", data: {} };
const send = (url: string, allowPrivate: boolean, timeoutMs = 2000) =>
  sendWebhook({ url, event, keys: [Buffer.alloc(32, 1)], timeoutMs, now: new Date(), allowPrivate });

describe("webhook targets", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["::1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.9", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["fe80::1", "linkLocal"],
    ["fd00::1", "uniqueLocal"],
    ["0.0.0.0", "unspecified"],
    ["100.64.0.1", "carrierGradeNat"],
    ["::ffff:127.0.0.1", "loopback"],
  ])("%s is refused (%s)", (address, range) => {
    expect(blockedAddressReason(address)).toBe(`${address} is a ${range} address`);
  });

  it.each(["93.184.215.14", "2606:4700::1111"])("%s (public) is allowed", (address) => {
    expect(blockedAddressReason(address)).toBeNull();
  });

  it("creation refuses http, private literals and names resolving to loopback; public https passes", async () => {
    await expect(checkWebhookTarget(new URL("http://93.184.215.14/hook"), false)).rejects.toThrow(/must be https/);
    await expect(checkWebhookTarget(new URL("https://169.254.169.254/latest"), false)).rejects.toThrow(
      /169\.254\.169\.254 is a linkLocal address/,
    );
    await expect(checkWebhookTarget(new URL("https://[::1]/"), false)).rejects.toThrow(/::1 is a loopback address/);
    await expect(checkWebhookTarget(new URL("https://localhost/hook"), false)).rejects.toThrow(/localhost resolves to .*loopback/);
    await expect(checkWebhookTarget(new URL("https://93.184.215.14/hook"), false)).resolves.toBeUndefined();
    await expect(checkWebhookTarget(new URL("http://127.0.0.1:9/hook"), true)).resolves.toBeUndefined();
  });

  it("createWebhookSubscription refuses a private target unless allowed, with a clear error", async () => {
    const world = await createWorld();
    const create = (url: string) => createWebhookSubscription({ db, tenantId: world.tenantId, url, now: new Date(), allowPrivate: false });
    const db = await getDb();
    await expect(create("https://10.0.0.1/")).rejects.toThrow(
      new WebhookSubscriptionError("the URL must not point at a private address: 10.0.0.1 is a private address"),
    );
    await expect(create("http://hooks.example.com/")).rejects.toBeInstanceOf(WebhookSubscriptionError);
    expect(await db.webhookSubscription.count({ where: { tenantId: world.tenantId } })).toBe(0);
  });

  it("delivery checks again: a loopback receiver gets nothing unless allowed, named by the address it resolved", async () => {
    const receiver = await server((_request, response) => response.writeHead(204).end());
    const refused = await send(`https://localhost:${receiver.port}/hook`, false);
    expect(refused).toMatchObject({ ok: false, statusCode: null });
    expect(refused.error).toMatch(/refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect((await send(`http://127.0.0.1:${receiver.port}/hook`, false)).error).toMatch(/must be https/);
    expect(receiver.requests()).toBe(0);
    expect(await send(`http://127.0.0.1:${receiver.port}/hook`, true)).toMatchObject({ ok: true, statusCode: 204 });
    expect(receiver.requests()).toBe(1);
  });

  it("reads at most a few KiB of the answer: an endless 200 body is delivered, not a timeout", async () => {
    let written = 0;
    const receiver = await server((_request, response) => {
      response.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 97);
      const pump = () => {
        while (!response.destroyed && written < 512 * 1024 * 1024 && response.write(chunk)) written += chunk.length;
      };
      response.on("drain", pump);
      pump();
    });
    const outcome = await send(`http://127.0.0.1:${receiver.port}/hook`, true, 3000);
    expect(outcome).toMatchObject({ ok: true, statusCode: 200, error: null });
    expect(outcome.durationMs).toBeLessThan(2000);
    expect(written).toBeLessThan(64 * 1024 * 1024);
    expect(MAX_RESPONSE_BYTES).toBe(4096);
  });
});
