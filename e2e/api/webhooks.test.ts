import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callMethod } from "@/test/api/api-client";
import { startWebhookReceiver, signatureVerifies, type WebhookReceiver } from "@/test/api/webhook-receiver";
import { startTestWorker } from "@/test/api/webhook-world";
import { createWorld, makeRequest, type World } from "@/test/api/world";
import { inProcessAdmin } from "@/test/cli/admin";
import { ADMIN_HELP, runAdmin } from "@/scripts/cli/admin/run-admin";
import { cliFailure } from "@/scripts/cli/shared/run-cli";
import type { BackgroundWorker } from "@/server/workers/background-worker";

// The issue end to end: an operator subscribes with `npm run webhooks` (an
// alias of `npm run admin -- webhooks`), pool admins decide over HTTP, a
// worker (limited to this tenant: the API server runs none) delivers the
// events, signed with the secret the CLI printed.
const run = promisify(execFile);
const outcome = (spawned: Promise<{ stdout: string; stderr: string }>): Promise<{ code: number; out: string }> =>
  spawned.then(
    ({ stdout, stderr }) => ({ code: 0, out: `${stdout}${stderr}` }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, out: `${error.stdout}${error.stderr}` }),
  );
/** `npm run webhooks -- …`, the alias an operator types. */
const npmRunWebhooks = (...args: string[]) => outcome(run("npm", ["run", "--silent", "webhooks", "--", ...args], { env: process.env }));
/**
 * The command the alias runs (`admin webhooks …`), run in this process by the
 * same runner and failure mapping (test/cli/admin.ts): the alias is spawned
 * once above, and scripts/cli/admin/admin-process.test.ts runs the real
 * process. On a loaded machine five spawns of it outlasted a test's minute.
 */
const { admin } = inProcessAdmin({ main: runAdmin, failure: (error) => cliFailure("admin", ADMIN_HELP, error) });
const webhooksCli = async (...args: string[]) => {
  const { code, stdout, stderr } = await admin(["webhooks", ...args]);
  return { code, out: `${stdout}${stderr}` };
};

let world: World;
let receiver: WebhookReceiver;
let worker: BackgroundWorker | undefined;
beforeAll(async () => {
  world = await createWorld();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

describe("npm run webhooks and delivery of decisions made over HTTP", () => {
  let subscriptionId = "";
  let secret = "";

  it("create (through the npm alias) prints the subscription and its secret once", async () => {
    const { code, out } = await npmRunWebhooks("create", "--tenant", world.tenantId, "--url", receiver.url, "--types", "approved,rejected");
    expect(code, out).toBe(0);
    subscriptionId = /(whsub_[0-9a-z]{26})/.exec(out)![1]!;
    secret = /(whsec_[A-Za-z0-9+/=]+)/.exec(out)![1]!;
    expect(out).toContain("types security.join-request.approved,security.join-request.rejected");
    expect(out).toContain("shown once");
  }, 60_000);

  it("decisions made over HTTP arrive signed with that secret, in order per request, only the subscribed types", async () => {
    const decide = (method: "approve" | "reject", requestId: string) =>
      callMethod(
        `joinRequests/${method}`,
        { tenantId: world.tenantId, poolId: world.pools.a, requestId, reason: "checked" },
        { bearer: world.keys.admin },
      );
    const first = await makeRequest(world, { poolId: world.pools.a });
    const second = await makeRequest(world, { poolId: world.pools.a });
    expect((await decide("approve", first)).status).toBe(200);
    expect((await decide("reject", first)).status).toBe(200); // withdraws the approval
    expect((await decide("reject", second)).status).toBe(200);

    worker = await startTestWorker(world);
    await receiver.waitFor((received) => received.length === 3);
    const bodies = receiver.received.map((webhook) => JSON.parse(webhook.body) as { type: string; data: Record<string, unknown> });
    for (const webhook of receiver.received) expect(signatureVerifies(secret, webhook)).toBe(true);
    const of = (requestId: string) => bodies.filter((body) => body.data.requestId === requestId);
    expect(of(first).map((body) => body.type)).toEqual(["security.join-request.approved", "security.join-request.rejected"]);
    expect(of(first)[1]!.data).toMatchObject({ previousState: "approved", reason: "checked" });
    expect(of(second).map((body) => body.type)).toEqual(["security.join-request.rejected"]);
  });

  it("list shows it healthy with its last attempt, and never the secret", async () => {
    const { code, out } = await webhooksCli("list", "--tenant", world.tenantId);
    expect(code, out).toBe(0);
    expect(out).toContain(subscriptionId);
    expect(out).toMatch(/healthy {2}last attempt \d{4}-\d\d-\d\dT/);
    expect(out).toContain("0 consecutive failures");
    expect(out).not.toContain(secret.slice(6));
  }, 60_000);

  it("rotate-secret prints a new secret; both sign during the grace period", async () => {
    const { code, out } = await webhooksCli("rotate-secret", "--tenant", world.tenantId, "--id", subscriptionId);
    expect(code, out).toBe(0);
    const rotated = /(whsec_[A-Za-z0-9+/=]+)/.exec(out)![1]!;
    expect(rotated).not.toBe(secret);
    expect(out).toMatch(/previous one also signs until \d{4}-/);
    const id = await makeRequest(world, { poolId: world.pools.a });
    await callMethod(
      "joinRequests/approve",
      { tenantId: world.tenantId, poolId: world.pools.a, requestId: id },
      { bearer: world.keys.admin },
    );
    await receiver.waitFor((received) => received.length === 4);
    const latest = receiver.received[3]!;
    expect(signatureVerifies(rotated, latest)).toBe(true);
    expect(signatureVerifies(secret, latest)).toBe(true);
  }, 60_000);

  it("delete removes it; list says so; bad input fails in one line (exit 1), a bad command is a usage error (exit 2)", async () => {
    expect((await webhooksCli("delete", "--tenant", world.other.tenantId, "--id", subscriptionId)).code).toBe(1);
    const deleted = await webhooksCli("delete", "--tenant", world.tenantId, "--id", subscriptionId);
    expect(deleted.code, deleted.out).toBe(0);
    expect((await webhooksCli("list", "--tenant", world.tenantId)).out).toContain(`no webhooks for ${world.tenantId}`);
    const bad = await webhooksCli("create", "--tenant", world.tenantId, "--url", "https://example.com/", "--types", "bogus");
    expect(bad.code).toBe(1);
    expect(bad.out).toContain("unknown event type security.join-request.bogus");
    const usage = await webhooksCli("frobnicate");
    expect(usage.code).toBe(2);
    expect(usage.out).toContain("Usage:");
  }, 60_000);
});
