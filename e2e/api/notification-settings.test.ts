import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { callMethod, expectError } from "@/test/api/api-client";
import { sessionHeaders, signedInUser, type SignedInUser } from "@/test/api/signed-in-user";
import { addPool, createServiceKey, createWorld, type World } from "@/test/api/world";

// Issue #39: a user's own notification settings (notifications/*), and a pool's
// default and escalation through pools/update (tenant-admins).
let world: World;
let tenantAdminKey: string;
let poolAdminA: SignedInUser;
beforeAll(async () => {
  world = await createWorld();
  tenantAdminKey = await createServiceKey(world.tenantId, [{ tenantId: world.tenantId, poolId: null, role: "tenant_admin" }]);
  poolAdminA = await signedInUser([{ tenantId: world.tenantId, poolId: world.pools.a, role: "pool_admin" }]);
});

const getSettings = (user: SignedInUser, body: Record<string, unknown> = {}) =>
  callMethod("notifications/getSettings", body, { headers: sessionHeaders(user) });
const updateSettings = (user: SignedInUser, body: Record<string, unknown>) =>
  callMethod("notifications/updateSettings", { tenantId: world.tenantId, ...body }, { headers: sessionHeaders(user) });
const updatePool = (body: Record<string, unknown>, bearer = tenantAdminKey) =>
  callMethod("pools/update", { tenantId: world.tenantId, ...body }, { bearer });
const storedChoice = async (userId: string, poolId: string) =>
  (await (await getDb()).notificationPreference.findUnique({ where: { userId_poolId: { userId, poolId } } }))?.mode ?? null;
const poolIdsOf = (body: { pools: { poolId: string }[] }) => body.pools.map((pool) => pool.poolId);

describe("notifications/getSettings", () => {
  it("lists the pool a pool-admin may decide, at the pool's default, with their address; no mail server is configured here", async () => {
    const response = await getSettings(poolAdminA);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      email: poolAdminA.email,
      // the shared API server names no BC_SMTP_URL
      mailConfigured: false,
      pools: [
        {
          tenantId: world.tenantId,
          poolId: world.pools.a,
          poolName: world.pools.a,
          siteId: world.siteId,
          mode: "immediate",
          source: "pool-default",
          poolDefault: "immediate",
        },
      ],
    });
  });

  it("lists every live pool of the tenant for a tenant-wide pool-admin and a tenant-admin, none archived, none of another tenant", async () => {
    const expected = [world.pools.a, world.pools.b, world.pools.otherSite].sort();
    for (const role of ["pool_admin", "tenant_admin"] as const) {
      const user = await signedInUser([{ tenantId: world.tenantId, poolId: null, role }]);
      const response = await getSettings(user);
      expect(response.status, response.text).toBe(200);
      const ids = poolIdsOf(response.body);
      expect(ids.filter((id) => !id.startsWith("px-")).sort(), role).toEqual(expected);
      expect(ids).not.toContain(world.pools.archived);
      expect(ids).not.toContain(world.other.poolId);
    }
  });

  it("gives a pool-viewer no settings: they hear of nothing they cannot decide", async () => {
    const viewer = await signedInUser([{ tenantId: world.tenantId, poolId: null, role: "pool_viewer" }]);
    const response = await getSettings(viewer);
    expect(response.status, response.text).toBe(200);
    expect(response.body.pools).toEqual([]);
  });

  it("refuses a service key (it has no mailbox) and an anonymous caller", async () => {
    const refused = await callMethod("notifications/getSettings", {}, { bearer: world.keys.admin });
    expectError(refused, 403, "PERMISSION_DENIED");
    expect(refused.body.error.message).toMatch(/service keys have no mailbox/);
    expectError(await callMethod("notifications/getSettings", {}), 401, "UNAUTHENTICATED");
  });

  it("names an unknown field (400)", async () => {
    const response = await getSettings(poolAdminA, { poolId: world.pools.a });
    expectError(response, 400, "INVALID_ARGUMENT");
    expect(response.body.error.details).toEqual([expect.objectContaining({ field: "poolId" })]);
  });
});

describe("notifications/updateSettings", () => {
  it("sets the caller's own mode, which getSettings then shows as theirs; null goes back to the pool's default", async () => {
    const user = await signedInUser([{ tenantId: world.tenantId, poolId: null, role: "pool_admin" }]);
    const off = await updateSettings(user, { poolId: world.pools.b, mode: "off" });
    expect(off.status, off.text).toBe(200);
    expect(off.body.setting).toMatchObject({ poolId: world.pools.b, mode: "off", source: "mine", poolDefault: "immediate" });
    expect(await storedChoice(user.id, world.pools.b)).toBe("off");
    const listed = (await getSettings(user)).body.pools;
    expect(listed.find((pool: { poolId: string }) => pool.poolId === world.pools.b)).toMatchObject({ mode: "off", source: "mine" });
    // another user's settings are their own
    expect((await getSettings(poolAdminA)).body.pools[0]).toMatchObject({ mode: "immediate", source: "pool-default" });

    const hourly = await updateSettings(user, { poolId: world.pools.b, mode: "digest_15m" });
    expect(hourly.body.setting).toMatchObject({ mode: "digest_15m", source: "mine" });
    const back = await updateSettings(user, { poolId: world.pools.b, mode: null });
    expect(back.status, back.text).toBe(200);
    expect(back.body.setting).toMatchObject({ mode: "immediate", source: "pool-default" });
    expect(await storedChoice(user.id, world.pools.b)).toBeNull();
  });

  it("follows the pool's default where the user has not chosen, and keeps their choice where they have", async () => {
    const poolId = await addPool(world);
    const [chooser, follower] = [
      await signedInUser([{ tenantId: world.tenantId, poolId, role: "pool_admin" }]),
      await signedInUser([{ tenantId: world.tenantId, poolId, role: "pool_admin" }]),
    ];
    expect((await updateSettings(chooser, { poolId, mode: "immediate" })).status).toBe(200);
    expect((await updatePool({ poolId, notifyDefault: "hourly" })).status).toBe(200);
    expect((await getSettings(follower)).body.pools).toEqual([
      expect.objectContaining({ mode: "hourly", source: "pool-default", poolDefault: "hourly" }),
    ]);
    expect((await getSettings(chooser)).body.pools).toEqual([
      expect.objectContaining({ mode: "immediate", source: "mine", poolDefault: "hourly" }),
    ]);
  });

  it("attack: a pool-admin of pool A cannot change pool B, nor a pool of another tenant; nothing is stored", async () => {
    expectError(await updateSettings(poolAdminA, { poolId: world.pools.b, mode: "off" }), 403, "PERMISSION_DENIED");
    expectError(await updateSettings(poolAdminA, { poolId: world.other.poolId, mode: "off" }), 403, "PERMISSION_DENIED");
    expectError(
      await updateSettings(poolAdminA, { tenantId: world.other.tenantId, poolId: world.other.poolId, mode: "off" }),
      403,
      "PERMISSION_DENIED",
    );
    // with a grant on every pool of its own tenant, another tenant's pool does not exist for it
    const tenantWide = await signedInUser([{ tenantId: world.tenantId, poolId: null, role: "pool_admin" }]);
    expectError(await updateSettings(tenantWide, { poolId: world.other.poolId, mode: "off" }), 404, "NOT_FOUND");
    const db = await getDb();
    expect(await db.notificationPreference.count({ where: { userId: { in: [poolAdminA.id, tenantWide.id] }, mode: "off" } })).toBe(0);
  });

  it("refuses a pool-viewer (403) and a service key, which has no mailbox (403, saying so)", async () => {
    const viewer = await signedInUser([{ tenantId: world.tenantId, poolId: null, role: "pool_viewer" }]);
    expectError(await updateSettings(viewer, { poolId: world.pools.a, mode: "off" }), 403, "PERMISSION_DENIED");
    const key = await callMethod(
      "notifications/updateSettings",
      { tenantId: world.tenantId, poolId: world.pools.a, mode: "off" },
      { bearer: world.keys.admin },
    );
    expectError(key, 403, "PERMISSION_DENIED");
    expect(key.body.error.message).toMatch(/service keys have no mailbox/);
  });

  it("refuses a session's change from another origin (CSRF)", async () => {
    const response = await callMethod(
      "notifications/updateSettings",
      { tenantId: world.tenantId, poolId: world.pools.a, mode: "off" },
      { headers: { cookie: poolAdminA.cookie, origin: "https://evil.example" } },
    );
    expectError(response, 403, "PERMISSION_DENIED");
    expect(await storedChoice(poolAdminA.id, world.pools.a)).toBeNull();
  });

  it.each([
    [{ mode: "loud" }, "mode"],
    [{ mode: 1 }, "mode"],
    [{}, "mode"],
    [{ mode: "off", poolId: "" }, "poolId"],
    [{ mode: "off", colour: "red" }, "colour"],
  ])("%j is INVALID_ARGUMENT naming %s", async (body, field) => {
    const response = await updateSettings(poolAdminA, { poolId: world.pools.a, ...body });
    expectError(response, 400, "INVALID_ARGUMENT");
    expect(response.body.error.details).toEqual([expect.objectContaining({ field })]);
  });
});

describe("pools/update: a pool's notification default and escalation (tenant-admins)", () => {
  it("sets them, lowercases and de-duplicates the addresses, records before and after, and turns escalation off with null", async () => {
    const poolId = await addPool(world);
    const set = await updatePool({
      poolId,
      notifyDefault: "digest_15m",
      escalateAfterMinutes: 30,
      escalationEmails: ["Oncall@Example.test", "oncall@example.test", "lead@example.test"],
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.pool).toMatchObject({
      notifyDefault: "digest_15m",
      escalateAfterMinutes: 30,
      escalationEmails: ["oncall@example.test", "lead@example.test"],
    });
    const off = await updatePool({ poolId, escalateAfterMinutes: null });
    expect(off.body.pool).toMatchObject({ escalateAfterMinutes: null, notifyDefault: "digest_15m" });
    // omitted stays as it was
    expect(off.body.pool.escalationEmails).toEqual(["oncall@example.test", "lead@example.test"]);
    const changes = await (await getDb()).event.findMany({ where: { type: "compute.admin.changed", poolId }, orderBy: { id: "asc" } });
    expect(changes.map((event) => event.data)).toEqual([
      expect.objectContaining({
        noun: "pool",
        verb: "update",
        notifyDefault: "digest_15m",
        previousNotifyDefault: "immediate",
        escalateAfterMinutes: 30,
        previousEscalateAfterMinutes: null,
        escalationEmails: ["oncall@example.test", "lead@example.test"],
        previousEscalationEmails: [],
      }),
      expect.objectContaining({ escalateAfterMinutes: null, previousEscalateAfterMinutes: 30 }),
    ]);
    expect(changes[1]!.data).not.toHaveProperty("notifyDefault");
  });

  it("is refused to a pool-admin, who may only choose their own mode", async () => {
    expectError(await updatePool({ poolId: world.pools.a, notifyDefault: "off" }, world.keys.poolAdminA), 403, "PERMISSION_DENIED");
    expect((await (await getDb()).pool.findUniqueOrThrow({ where: { id: world.pools.a } })).notifyDefault).toBe("immediate");
  });

  it.each([
    [{ notifyDefault: "loud" }, "notifyDefault"],
    [{ escalateAfterMinutes: 0 }, "escalateAfterMinutes"],
    [{ escalateAfterMinutes: 10_081 }, "escalateAfterMinutes"],
    [{ escalateAfterMinutes: 1.5 }, "escalateAfterMinutes"],
    [{ escalateAfterMinutes: "60" }, "escalateAfterMinutes"],
    [{ escalationEmails: "oncall@example.test" }, "escalationEmails"],
    [{ escalationEmails: ["not an address"] }, "escalationEmails.0"],
    [{ escalationEmails: Array.from({ length: 21 }, (_, index) => `a${index}@example.test`) }, "escalationEmails"],
  ])("%j is INVALID_ARGUMENT naming %s", async (body, field) => {
    const response = await updatePool({ poolId: world.pools.a, ...body });
    expectError(response, 400, "INVALID_ARGUMENT");
    expect(response.body.error.details).toEqual([expect.objectContaining({ field })]);
  });
});
