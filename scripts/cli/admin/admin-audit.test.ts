import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { serveMethod } from "@/server/methods/serve-method";
import { signatureVerifies, startWebhookReceiver } from "@/test/api/webhook-receiver";
import { startTestWorker, webhookWorld } from "@/test/api/webhook-world";
import { inProcessAdmin, json } from "@/test/cli/admin";
import { cliFailure } from "../shared/run-cli";
import { ADMIN_HELP, runAdmin } from "./run-admin";

const { admin, adminWorld } = inProcessAdmin({ main: runAdmin, failure: (error) => cliFailure("admin", ADMIN_HELP, error) });

// Every administrative change is a compute.admin.changed event (SPEC E1):
// actor cli:<os user>, noun, verb, ids, never a secret; events/list shows it
// to the pools it concerns (the pool's own, its site's, its tenant's), and it
// is delivered to the tenant's webhooks like every other event.

async function events(bearer: string, tenantId: string, poolId: string, types?: string[]) {
  const response = await serveMethod(
    new Request("http://localhost/api/compute/events/list", {
      method: "POST",
      headers: { authorization: `Bearer ${bearer}` },
      body: JSON.stringify({ tenantId, poolId, types, limit: 200 }),
    }),
    "events/list",
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { events: { type: string; tenantId: string; data: Record<string, string> }[] }).events;
}

const described = (list: Awaited<ReturnType<typeof events>>) =>
  list.map((event) => `${event.data.noun} ${event.data.verb} ${event.data.id}`);

describe("compute.admin.changed", () => {
  it("lands in the pools it concerns: a pool's change in that pool, a site's and a tenant's in all of their pools", async () => {
    const { tenantId, siteId, pools } = await adminWorld();
    const other = await adminWorld();
    const key = json<{ serviceKey: { id: string }; bearer: string }>(
      await admin(["service-keys", "create", "--tenant", tenantId, "--name", "auditor", "--json"]),
    );
    await admin(["grants", "add", "--tenant", tenantId, "--subject", key.serviceKey.id, "--role", "pool-viewer", "--all-pools"]);
    await admin(["pools", "archive", "--tenant", tenantId, "--id", pools[1]]);

    const inA = described(await events(key.bearer, tenantId, pools[0], ["compute.admin.changed"]));
    const inB = described(await events(key.bearer, tenantId, pools[1], ["compute.admin.changed"]));
    // tenant- and site-wide changes made while the pool exists concern it; those before it was made do not
    const discovered = await admin(["discovery", "import", "--tenant", tenantId, "--site", siteId, "--file", "m.json"], {
      files: { "m.json": JSON.stringify([{ systemUuid: "0a0a0a0a-0000-4000-8000-000000000001", macAddresses: ["52:54:00:0a:0a:01"] }]) },
    });
    expect(discovered.code, discovered.stderr).toBe(0);
    const withDiscovery = (poolId: string) => events(key.bearer, tenantId, poolId, ["compute.admin.changed", "compute.discovery.changed"]);
    for (const poolId of pools) {
      const lines = described(await withDiscovery(poolId));
      expect(lines).toContain(`service-key create bcsk_${key.serviceKey.id}`);
      expect(lines).toContain(`discovery upsert ${siteId}`);
      expect(lines).not.toContain(`tenant create ${tenantId}`);
      expect(lines).not.toContain(`site create ${siteId}`);
    }
    expect(inA).toContain(`pool create ${pools[0]}`);
    expect(inA).not.toContain(`pool create ${pools[1]}`);
    expect(inB).toEqual(expect.arrayContaining([`pool create ${pools[1]}`, `pool archive ${pools[1]}`]));
    expect(inA.some((line) => line.startsWith("grant add"))).toBe(true);
    // nothing of another tenant
    expect(inA.join(" ")).not.toContain(other.tenantId);

    const all = await (await getDb()).event.findMany({ where: { tenantId, type: "compute.admin.changed" } });
    for (const event of all) expect(event.data).toMatchObject({ actor: expect.stringMatching(/^cli:\S+$/) });
    const secret = key.bearer.split(".")[1]!;
    expect(JSON.stringify(all)).not.toContain(secret);
  });

  it("is delivered, signed, to the tenant's webhooks", async () => {
    const receiver = await startWebhookReceiver();
    const { world, secret } = await webhookWorld(receiver.url, ["compute.admin.changed"]);
    const worker = await startTestWorker(world);
    afterAll(async () => {
      await worker.stop();
      await receiver.close();
    });
    const poolId = `pw-${world.tenantId}`;
    expect((await admin(["pools", "create", "--tenant", world.tenantId, "--site", world.siteId, "--id", poolId])).code).toBe(0);
    await receiver.waitFor((received) => received.some((webhook) => webhook.body.includes(poolId)), 30_000);
    const webhook = receiver.received.find((received) => received.body.includes(poolId))!;
    expect(signatureVerifies(secret, webhook)).toBe(true);
    expect(JSON.parse(webhook.body)).toMatchObject({
      type: "compute.admin.changed",
      tenantId: world.tenantId,
      data: { noun: "pool", verb: "create", id: poolId, poolId, siteId: world.siteId, actor: expect.stringMatching(/^cli:/) },
    });
  });
});
