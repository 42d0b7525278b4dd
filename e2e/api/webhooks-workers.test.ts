import { randomBytes } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnWorker } from "@/test/harness/spawn-worker";
import { startAppServer, type AppServer } from "@/test/harness/start-app-server";
import { createJoinRequest } from "@/server/join-requests/create-join-request";
import { createWebhookSubscription } from "@/server/webhooks/webhook-subscriptions";
import { createScratchDatabase, scratchTenant, type ScratchDatabase } from "@/test/api/scratch-database";
import { startWebhookReceiver, type WebhookReceiver } from "@/test/api/webhook-receiver";
import "@/test/api/webhook-world"; // a CA key for this process when vitest runs alone

// The background workers as they run for real: inside `next start` (started
// once per process by instrumentation's register(), not with BC_WORKERS=off)
// and as `npm run worker` (SIGTERM: the attempt in flight finishes, exit 0).
// On a database of their own: unscoped retention must not touch the shared one.
let scratch: ScratchDatabase;
let receiver: WebhookReceiver;
const slow = new Set<string>();
beforeAll(async () => {
  scratch = await createScratchDatabase();
  receiver = await startWebhookReceiver((id) => (slow.has(id) ? { status: 200, delayMs: 1_500 } : 200));
}, 120_000);
afterAll(async () => {
  await receiver?.close();
  await scratch?.drop();
});

const workerEnv = () => ({
  DATABASE_URL: scratch.url,
  BC_CA_KEY_ENCRYPTION_KEY: process.env.BC_CA_KEY_ENCRYPTION_KEY!,
  BC_LOG_LEVEL: "info",
  BC_WEBHOOK_POLL_MS: "100",
});

/** A tenant with a webhook to the receiver and one pending request already past its expiry. */
async function scene() {
  const { db } = scratch;
  const tenant = await scratchTenant(db);
  // subscribed before the request was made (its clock runs two minutes back)
  await createWebhookSubscription({ db, tenantId: tenant.tenantId, url: receiver.url, now: new Date(Date.now() - 180_000) });
  const request = await createJoinRequest({
    db,
    tenantId: tenant.tenantId,
    siteId: tenant.siteId,
    poolId: tenant.poolId,
    reasons: ["unknown-to-discovery"],
    machine: {
      hostname: "late.test",
      systemUuid: randomBytes(8).toString("hex"),
      serialNumber: "SN",
      macAddresses: [],
      tpmEkSha256: null,
      tpmEkProven: false,
    },
    csrSha256: randomBytes(32).toString("hex"),
    credential: { joinTokenId: "test-token" },
    actor: "test",
    now: new Date(Date.now() - 120_000),
    ttlSeconds: 60,
  });
  return { ...tenant, requestId: request.id };
}
const storedState = async (id: string) => (await scratch.db.joinRequest.findUniqueOrThrow({ where: { id } })).state;
const typesReceivedFor = (tenantId: string) =>
  receiver.received
    .map((webhook) => JSON.parse(webhook.body) as { type: string; tenantId: string })
    .filter((body) => body.tenantId === tenantId)
    .map((body) => body.type);

async function startServer(workers: "on" | "off", logFile: string): Promise<AppServer> {
  await rm(logFile, { force: true });
  return startAppServer({ databaseUrl: scratch.url, logFile, env: { ...workerEnv(), BC_WORKERS: workers } });
}
const linesOf = async (file: string, text: string) => (await readFile(file, "utf8")).split("\n").filter((line) => line.includes(text));

describe("inside the app process", () => {
  it("BC_WORKERS=on: started once; retention marks the expired request and its events reach the webhook", async () => {
    const { tenantId, requestId } = await scene();
    const logFile = "test-results/workers-on-server.log";
    const server = await startServer("on", logFile);
    try {
      await receiver.waitFor(() => typesReceivedFor(tenantId).length === 2, 30_000);
      expect(typesReceivedFor(tenantId)).toEqual(["security.join-request.created", "security.join-request.expired"]);
      expect(await storedState(requestId)).toBe("expired");
      // pages and API calls load more of the app; nothing starts the workers again
      for (const path of ["/signin", "/api/health", "/api/compute/joinRequests/list", "/"])
        await fetch(`${server.baseUrl}${path}`, { method: path.startsWith("/api/compute") ? "POST" : "GET" });
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      await server.stop();
    }
    expect(await linesOf(logFile, "background workers started")).toHaveLength(1);
  }, 90_000);

  it("BC_WORKERS=off: none start; the expired request stays stored pending, nothing is sent", async () => {
    const { tenantId, requestId } = await scene();
    const logFile = "test-results/workers-off-server.log";
    const server = await startServer("off", logFile);
    try {
      await fetch(`${server.baseUrl}/api/health`);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(await storedState(requestId)).toBe("pending");
      expect(typesReceivedFor(tenantId)).toEqual([]);
    } finally {
      await server.stop();
    }
    expect(await linesOf(logFile, "background workers started")).toHaveLength(0);
    expect(await linesOf(logFile, "background workers are off")).toHaveLength(1);
  }, 90_000);

  it("npm start, SIGTERM while a webhook attempt is in flight: the attempt finishes and is recorded before the exit", async () => {
    const { tenantId } = await scene();
    const logFile = "test-results/workers-clean-stop-server.log";
    await rm(logFile, { force: true });
    const created = await scratch.db.event.findFirstOrThrow({ where: { tenantId } });
    slow.add(created.id); // the receiver takes 1.5 s to answer this one
    const server = await startAppServer({ databaseUrl: scratch.url, logFile, processes: 1, env: { ...workerEnv(), BC_WORKERS: "on" } });
    try {
      await receiver.waitFor((received) => received.some((webhook) => webhook.id === created.id), 30_000);
    } finally {
      await server.stop(); // SIGTERM to npm start's primary, which passes it on; waits for the exit
    }
    expect(await linesOf(logFile, "stopping: finishing the requests and webhook attempts in flight")).toHaveLength(1);
    expect(await linesOf(logFile, '"msg":"stopped"')).toHaveLength(1);
    const delivery = await scratch.db.webhookDelivery.findFirstOrThrow({ where: { eventId: created.id }, include: { attemptLog: true } });
    expect(delivery.status).toBe("delivered");
    expect(delivery.attemptLog.map((attempt) => attempt.statusCode)).toEqual([200]);
    expect(delivery.attemptLog[0]!.durationMs).toBeGreaterThanOrEqual(1_400);
    // nothing was claimed after the signal: the expiry's event was not sent
    expect(typesReceivedFor(tenantId)).toEqual(["security.join-request.created"]);
  }, 90_000);
});

describe("npm run worker", () => {
  it("delivers and marks; on SIGTERM it stops claiming, finishes the attempt in flight and exits 0", async () => {
    const { tenantId, requestId } = await scene();
    const created = await scratch.db.event.findFirstOrThrow({ where: { requestId } });
    slow.add(created.id); // the receiver takes 1.5 s to answer this one
    const child = spawnWorker({
      env: { ...process.env, ...workerEnv() },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      await receiver.waitFor((received) => received.some((webhook) => webhook.id === created.id), 30_000);
      child.kill("SIGTERM"); // while the receiver is still answering
      const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve("still running"), 15_000))]);
      expect(code, stderr).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
    expect(stderr).toContain("worker stopping");
    expect(stderr).toContain("worker stopped");
    // the attempt in flight was finished and recorded before the exit
    const delivery = await scratch.db.webhookDelivery.findFirstOrThrow({ where: { eventId: created.id }, include: { attemptLog: true } });
    expect(delivery.status).toBe("delivered");
    expect(delivery.attemptLog.map((attempt) => attempt.statusCode)).toEqual([200]);
    expect(delivery.attemptLog[0]!.durationMs).toBeGreaterThanOrEqual(1_400);
    // and nothing was claimed after the signal: the expiry's event was not sent yet
    expect(await storedState(requestId)).toBe("expired"); // retention ran at start
    expect(typesReceivedFor(tenantId)).toEqual(["security.join-request.created"]);
  }, 60_000);
});
