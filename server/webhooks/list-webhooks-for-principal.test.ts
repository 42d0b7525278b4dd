import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import "@/test/api/webhook-world"; // sets a CA key encryption key for the secrets
import { createWorld } from "@/test/api/world";
import type { Principal } from "../auth/principal";
import type { Role } from "../auth/roles";
import { listWebhooksForPrincipal } from "./list-webhooks-for-principal";
import { createWebhookSubscription } from "./webhook-subscriptions";

const URL_WITH_TOKEN = "https://hooks.example.com:8443/bc/T0KEN-abc?key=s3cret";

describe("webhook URLs in the console", () => {
  it("tenant-wide pool-admin sees the whole URL; a tenant-wide pool-viewer only scheme and host", async () => {
    const db = await getDb();
    const world = await createWorld();
    await createWebhookSubscription({ db, tenantId: world.tenantId, url: URL_WITH_TOKEN, now: new Date() });
    const as = (role: Role): Principal => ({ kind: "user", id: `usr_${role}`, grants: [{ tenantId: world.tenantId, poolId: null, role }] });
    const urls = async (principal: Principal) =>
      (await listWebhooksForPrincipal({ db, principal })).flatMap((tenant) => tenant.subscriptions.map((subscription) => subscription.url));

    expect(await urls(as("pool_admin"))).toEqual([URL_WITH_TOKEN]);
    const viewer = await urls(as("pool_viewer"));
    expect(viewer).toEqual(["https://hooks.example.com:8443/…"]);
    expect(viewer.join()).not.toMatch(/T0KEN|s3cret/);
    // A viewer of the whole tenant who is pool-admin on one pool only is still below tenant-wide admin.
    const mixed: Principal = {
      kind: "user",
      id: "usr_mixed",
      grants: [...as("pool_viewer").grants, { tenantId: world.tenantId, poolId: world.pools.a, role: "pool_admin" }],
    };
    expect(await urls(mixed)).toEqual(["https://hooks.example.com:8443/…"]);
  });
});
