import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { newId } from "@/lib/ids";
import { callMethod, expectError } from "@/test/api/api-client";
import { createServiceKey, createWorld, makeRequest, type World } from "@/test/api/world";

// SPEC E2: tenant-admin (tenant-wide grants only) holds everything pool-admin
// holds on every pool of its tenant, and nothing in another tenant.
let world: World;
let tenantAdmin: string;
beforeAll(async () => {
  world = await createWorld();
  tenantAdmin = await createServiceKey(world.tenantId, [{ tenantId: world.tenantId, poolId: null, role: "tenant_admin" }]);
});

const ALL_POOLS = () => [world.pools.a, world.pools.b, world.pools.otherSite];

describe("tenant-admin", () => {
  it("reads every pool's queue and events, and makes join tokens in each", async () => {
    for (const poolId of ALL_POOLS()) {
      for (const method of ["joinRequests/list", "events/list", "joinTokens/list"]) {
        const response = await callMethod(method, { tenantId: world.tenantId, poolId }, { bearer: tenantAdmin });
        expect(response.status, `${method} ${poolId}: ${response.text}`).toBe(200);
      }
      const token = await callMethod(
        "joinTokens/create",
        { tenantId: world.tenantId, poolId, maxUses: 1, ttlSeconds: 3600 },
        { bearer: tenantAdmin },
      );
      expect(token.status, token.text).toBe(200);
    }
  });

  it("approves and rejects in every pool of the tenant, as a pool-admin does", async () => {
    for (const poolId of ALL_POOLS()) {
      const toApprove = await makeRequest(world, { poolId, siteId: poolId === world.pools.otherSite ? world.otherSiteId : world.siteId });
      const toReject = await makeRequest(world, { poolId, siteId: poolId === world.pools.otherSite ? world.otherSiteId : world.siteId });
      const approved = await callMethod(
        "joinRequests/approve",
        { tenantId: world.tenantId, poolId, requestId: toApprove },
        { bearer: tenantAdmin },
      );
      expect(approved.status, approved.text).toBe(200);
      expect(approved.body.decidedBy).toBe(tenantAdmin.slice(0, tenantAdmin.indexOf(".")));
      const rejected = await callMethod(
        "joinRequests/reject",
        { tenantId: world.tenantId, poolId, requestId: toReject },
        { bearer: tenantAdmin },
      );
      expect(rejected.status, rejected.text).toBe(200);
    }
  });

  it("is PERMISSION_DENIED in another tenant, for reads and decisions alike", async () => {
    const requestId = await makeRequest(world, { poolId: world.other.poolId, siteId: world.other.siteId, tenantId: world.other.tenantId });
    const other = { tenantId: world.other.tenantId, poolId: world.other.poolId };
    expectError(await callMethod("joinRequests/list", other, { bearer: tenantAdmin }), 403, "PERMISSION_DENIED");
    expectError(await callMethod("events/list", other, { bearer: tenantAdmin }), 403, "PERMISSION_DENIED");
    expectError(await callMethod("joinRequests/approve", { ...other, requestId }, { bearer: tenantAdmin }), 403, "PERMISSION_DENIED");
    // naming its own tenant with the other tenant's pool: the pool is not the tenant's
    expectError(
      await callMethod("joinRequests/list", { tenantId: world.tenantId, poolId: world.other.poolId }, { bearer: tenantAdmin }),
      404,
      "NOT_FOUND",
    );
  });

  it("cannot be granted on one pool: the database refuses the row", async () => {
    const db = await getDb();
    const key = await db.serviceKey.findFirstOrThrow({ where: { tenantId: world.tenantId }, select: { id: true } });
    await expect(
      db.roleGrant.create({
        data: { id: newId("grant"), tenantId: world.tenantId, poolId: world.pools.a, role: "tenant_admin", serviceKeyId: key.id },
      }),
    ).rejects.toThrow(/role_grants_tenant_admin_tenant_wide/);
  });
});
