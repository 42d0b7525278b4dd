import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { findPool } from "@/server/places/find-pool";
import { approveJoinRequest } from "@/server/join-requests/approve-join-request";
import { rejectJoinRequest } from "@/server/join-requests/reject-join-request";
import { consoleLink, requestPagePath } from "@/lib/url/console-paths";
import { env } from "@/server/env";
import { digestWindow } from "@/lib/notifications/digest-window";
import type { BackgroundWorker } from "@/server/workers/background-worker";
import { startSmtpServer, type TestSmtpServer } from "@/test/harness/smtp-server";
import { apiUrl, callMethod } from "@/test/api/api-client";
import { addUser, movableClock, startMailWorker } from "@/test/api/mail-world";
import { createWorld, makeRequest, storedRequest, type World } from "@/test/api/world";

// Issue #39: mail notifications through a real SMTP server (smtp-server on
// loopback). Each test builds its own tenant and runs its own notification
// workers limited to it (the API server runs none); time is moved through the
// workers' clock.

let smtp: TestSmtpServer;
const workers: BackgroundWorker[] = [];
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});
afterAll(async () => {
  await smtp?.close();
});

const db = () => getDb();
const linkTo = (poolId: string, requestId: string) => consoleLink(env().NEXTAUTH_URL, requestPagePath(poolId, requestId));
const hostnameOf = async (requestId: string) => (await storedRequest(requestId)).hostname;
const about = (server: TestSmtpServer, email: string, text: string) => server.to(email).filter((mail) => mail.text.includes(text));
/** Lets the workers run several more passes, so a second mail that should not come has had its chance. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 600));

/** A tenant with deciders of pool a in every mode, and people who must not hear of its requests. */
async function deciders(world: World) {
  const a = world.pools.a;
  return {
    poolAdmin: await addUser(world, { role: "pool_admin", poolId: a }),
    tenantAdmin: await addUser(world, { role: "tenant_admin", poolId: null }),
    tenantWidePoolAdmin: await addUser(world, { role: "pool_admin", poolId: null }),
    digest: await addUser(world, { role: "pool_admin", poolId: a }, { modes: { [a]: "digest_15m" } }),
    off: await addUser(world, { role: "pool_admin", poolId: a }, { modes: { [a]: "off" } }),
    viewer: await addUser(world, { role: "pool_viewer", poolId: null }),
    otherPoolAdmin: await addUser(world, { role: "pool_admin", poolId: world.pools.b }),
    disabled: await addUser(world, { role: "pool_admin", poolId: a }, { disabled: true }),
  };
}

describe("a request waits", () => {
  it("exactly one mail to each user who may decide the pool and hears at once; none to a viewer, an off, a disabled user or another pool's admin", async () => {
    const world = await createWorld();
    const people = await deciders(world);
    workers.push(await startMailWorker(world, smtp.url), await startMailWorker(world, smtp.url)); // two workers: still one mail each
    const requestId = await makeRequest(world, { poolId: world.pools.a, reasons: ["unknown-to-discovery"] });
    const hostname = await hostnameOf(requestId);

    for (const person of [people.poolAdmin, people.tenantAdmin, people.tenantWidePoolAdmin]) {
      await expect.poll(() => about(smtp, person.email, hostname).length, { timeout: 20_000 }).toBe(1);
    }
    await settle();
    for (const person of [people.poolAdmin, people.tenantAdmin, people.tenantWidePoolAdmin]) {
      const [mail] = about(smtp, person.email, hostname);
      expect(about(smtp, person.email, hostname)).toHaveLength(1);
      expect(mail!.subject).toBe(`Join request waiting: ${hostname} in ${world.pools.a}`);
      expect(mail!.from).toBe("bc@mail.test");
      expect(mail!.text).toContain("unknown-to-discovery");
      expect(mail!.text).toContain(linkTo(world.pools.a, requestId));
      expect(mail!.html).toContain(`href="${linkTo(world.pools.a, requestId)}"`);
      expect(mail!.html).not.toMatch(/<img|<script/i);
    }
    for (const person of [people.viewer, people.off, people.otherPoolAdmin, people.disabled, people.digest]) {
      expect(smtp.to(person.email)).toEqual([]);
    }
    const rows = await (await db()).notificationDelivery.findMany({ where: { requestId }, include: { attemptLog: true } });
    expect(rows.filter((row) => row.kind === "waiting").map((row) => row.status)).toEqual(["sent", "sent", "sent"]);
    for (const row of rows) expect(row.attemptLog[0]!.response).toMatch(/^250/);
  }, 60_000);

  it("the link, opened signed out, goes to sign-in with the request page as where to return", async () => {
    const world = await createWorld();
    const requestId = await makeRequest(world, { poolId: world.pools.a });
    const path = requestPagePath(world.pools.a, requestId);
    const answer = await fetch(apiUrl(path), { redirect: "manual" });
    expect(answer.status).toBeGreaterThanOrEqual(300);
    expect(answer.status).toBeLessThan(400);
    const location = new URL(answer.headers.get("location")!, apiUrl("/"));
    expect(location.pathname).toBe("/signin");
    expect(location.searchParams.get("callbackUrl")).toBe(path);
  });
});

describe("a decision", () => {
  it("each user who approved hears the outcome, except the one who made the decision", async () => {
    const world = await createWorld();
    const people = await deciders(world);
    const pool = await findPool(await db(), world.tenantId, world.pools.a);
    const approvedId = await makeRequest(world, { poolId: world.pools.a });
    const rejectedId = await makeRequest(world, { poolId: world.pools.a });
    await (await db()).joinRequest.updateMany({ where: { id: { in: [approvedId, rejectedId] } }, data: { approvalsRequired: 2 } });
    const decide = { db: await db(), pool, ttlSeconds: 3600, now: new Date() };
    await approveJoinRequest({ ...decide, requestId: approvedId, actor: people.poolAdmin.id });
    await approveJoinRequest({ ...decide, requestId: approvedId, actor: people.tenantAdmin.id });
    await approveJoinRequest({ ...decide, requestId: rejectedId, actor: people.poolAdmin.id });
    await rejectJoinRequest({
      db: await db(),
      pool,
      requestId: rejectedId,
      reason: "serial unknown",
      actor: people.tenantAdmin.id,
      now: new Date(),
    });
    workers.push(await startMailWorker(world, smtp.url));

    const [approvedHost, rejectedHost] = [await hostnameOf(approvedId), await hostnameOf(rejectedId)];
    await expect.poll(() => about(smtp, people.poolAdmin.email, "which you approved").length, { timeout: 20_000 }).toBe(2);
    await settle();
    const outcomes = about(smtp, people.poolAdmin.email, "which you approved");
    expect(outcomes.map((mail) => mail.subject).sort()).toEqual(
      [`Join request approved: ${approvedHost} in ${world.pools.a}`, `Join request rejected: ${rejectedHost} in ${world.pools.a}`].sort(),
    );
    expect(outcomes.find((mail) => mail.subject.includes("rejected"))!.text).toContain("Reason: serial unknown");
    expect(about(smtp, people.tenantAdmin.email, "which you approved")).toEqual([]);
    // decided before the worker looked: nothing waits, so no one is told it does
    expect(smtp.to(people.tenantWidePoolAdmin.email)).toEqual([]);
  }, 60_000);
});

describe("digests", () => {
  it("a digest_15m user gets one mail at the window's end holding each of its requests once, and no mail per request", async () => {
    const world = await createWorld();
    const people = await deciders(world);
    // the workers' clock half a minute into the current window (never ahead of the real one, so no event is behind their
    // scan cursor), so the requests land in one window however close to its end the test starts
    const clock = movableClock();
    const window = digestWindow("digest_15m", new Date());
    clock.offsetMs = Math.min(0, window.start.getTime() + 30_000 - Date.now());
    workers.push(
      await startMailWorker(world, smtp.url, { clock: clock.now }),
      await startMailWorker(world, smtp.url, { clock: clock.now }),
    );
    const ids = [await makeRequest(world, { poolId: world.pools.a }), await makeRequest(world, { poolId: world.pools.a })];
    const hosts = await Promise.all(ids.map(hostnameOf));
    const items = () => db().then((client) => client.notificationDigestItem.count({ where: { userId: people.digest.id } }));
    await expect.poll(items, { timeout: 20_000 }).toBe(2);
    await settle();
    expect(smtp.to(people.digest.email)).toEqual([]); // the window is still open

    clock.offsetMs = window.end.getTime() + 1_000 - Date.now(); // past the window's end
    await expect.poll(() => smtp.to(people.digest.email).length, { timeout: 20_000 }).toBe(1);
    await settle();
    const [digest] = smtp.to(people.digest.email);
    expect(smtp.to(people.digest.email)).toHaveLength(1);
    expect(digest!.subject).toBe("Digest: 2 join requests, 2 still waiting");
    for (const host of hosts) expect(digest!.text.split(host)).toHaveLength(2); // once each
    for (const id of ids) expect(digest!.text).toContain(linkTo(world.pools.a, id));
  }, 60_000);
});

describe("escalation", () => {
  it("a request still pending after escalateAfterMinutes: one mail to each escalation address and one escalated event, once", async () => {
    const world = await createWorld();
    const client = await db();
    const oncall = ["oncall@mail.test", "lead@mail.test"].map((address) => address.replace("@", `-${world.tenantId}@`));
    await client.pool.update({ where: { id: world.pools.a }, data: { escalateAfterMinutes: 30, escalationEmails: oncall } });
    const clock = movableClock();
    clock.offsetMs = -2 * 60_000; // set before the workers and the request: they poll every 25 ms
    workers.push(
      await startMailWorker(world, smtp.url, { clock: clock.now }),
      await startMailWorker(world, smtp.url, { clock: clock.now }),
    );
    // The request waited 31 minutes by the real clock; the workers first look two minutes behind it. Time is
    // moved back, never ahead: the escalated event's id is made at the workers' now, and ids made in the
    // future would hold this process's id clock there for the test files after this one (shared-process-guard.ts).
    const requestId = await makeRequest(world, { poolId: world.pools.a, at: new Date(Date.now() - 31 * 60_000) });
    const escalated = () => client.event.count({ where: { requestId, type: "compute.join-request.escalated" } });

    await settle();
    expect(await escalated()).toBe(0);
    expect(oncall.flatMap((address) => smtp.to(address))).toEqual([]);

    clock.offsetMs = 0;
    for (const address of oncall) await expect.poll(() => smtp.to(address).length, { timeout: 20_000 }).toBe(1);
    await settle();
    expect(await escalated()).toBe(1);
    for (const address of oncall) {
      expect(smtp.to(address)).toHaveLength(1);
      expect(smtp.to(address)[0]!.subject).toMatch(/^Escalated: .* has waited 31 min in /);
      expect(smtp.to(address)[0]!.text).toContain(linkTo(world.pools.a, requestId));
    }
  }, 60_000);
});

describe("delivery", () => {
  it("an SMTP server refusing (451) for a while, then accepting: every mail delivered exactly once, every attempt logged", async () => {
    let refusing = true;
    const flaky = await startSmtpServer({
      onRecipient: () => (refusing ? { code: 451, message: "4.3.0 try again later" } : "accept"),
      onMessage: () => (refusing ? { code: 451, message: "4.3.0 try again later" } : "accept"),
    });
    try {
      const world = await createWorld();
      const admins = [
        await addUser(world, { role: "pool_admin", poolId: world.pools.a }),
        await addUser(world, { role: "tenant_admin", poolId: null }),
      ];
      workers.push(await startMailWorker(world, flaky.url), await startMailWorker(world, flaky.url));
      const ids = [await makeRequest(world, { poolId: world.pools.a }), await makeRequest(world, { poolId: world.pools.a })];
      await expect.poll(() => flaky.refusals, { timeout: 20_000 }).toBeGreaterThanOrEqual(8);
      refusing = false;
      for (const admin of admins) await expect.poll(() => flaky.to(admin.email).length, { timeout: 20_000 }).toBe(2);
      await settle();
      for (const admin of admins) {
        for (const id of ids) expect(about(flaky, admin.email, await hostnameOf(id))).toHaveLength(1);
      }
      const rows = await (await db()).notificationDelivery.findMany({ where: { tenantId: world.tenantId }, include: { attemptLog: true } });
      expect(rows).toHaveLength(4);
      for (const row of rows) {
        expect(row.status).toBe("sent");
        expect(row.attemptLog.length).toBe(row.attempts);
        expect(row.attemptLog.filter((attempt) => attempt.error?.includes("451"))).toHaveLength(row.attempts - 1);
      }
      expect(rows.some((row) => row.attempts > 1)).toBe(true);
    } finally {
      await flaky.close();
    }
  }, 60_000);

  it("a slow SMTP server does not slow a decision: approve answers while the mail is still being sent", async () => {
    const slow = await startSmtpServer({ delayMs: () => 5_000 });
    try {
      const world = await createWorld();
      const admin = await addUser(world, { role: "pool_admin", poolId: world.pools.a });
      const client = await db();
      workers.push(await startMailWorker(world, slow.url));
      const requestId = await makeRequest(world, { poolId: world.pools.a });
      // the waiting mail is in the SMTP server's hands (claimed, attempt under way)
      await expect.poll(() => client.notificationDelivery.count({ where: { requestId, attempts: 1 } }), { timeout: 20_000 }).toBe(1);
      const started = performance.now();
      const answer = await callMethod(
        "joinRequests/approve",
        { tenantId: world.tenantId, poolId: world.pools.a, requestId },
        { bearer: world.keys.admin },
      );
      expect(answer.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(slow.received).toEqual([]); // the mail was still held by the slow server when approve answered
      await expect.poll(() => slow.to(admin.email).length, { timeout: 20_000 }).toBe(1);
    } finally {
      await slow.close();
    }
  }, 60_000);

  it("with no SMTP server configured, mails are recorded as not_configured once and never retried", async () => {
    const world = await createWorld();
    await addUser(world, { role: "pool_admin", poolId: world.pools.a });
    const { startNotificationWorker } = await import("@/server/notifications/notification-worker");
    workers.push(startNotificationWorker({ db: await db(), send: null, tenantId: world.tenantId, pollMs: 25 }));
    const requestId = await makeRequest(world, { poolId: world.pools.a });
    const rows = () => db().then((client) => client.notificationDelivery.findMany({ where: { requestId }, include: { attemptLog: true } }));
    await expect.poll(async () => (await rows())[0]?.status, { timeout: 20_000 }).toBe("not_configured");
    await settle();
    const [row] = await rows();
    expect(row!.attempts).toBe(1);
    expect(row!.attemptLog.map((attempt) => attempt.error)).toEqual(["BC_SMTP_URL is not set"]);
  }, 60_000);
});
