import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { callMethod, expectError } from "@/test/api/api-client";
import { createServiceKey } from "@/test/api/world";
import {
  createJoinWorld,
  freshTpm,
  join,
  joinThroughTpm,
  knownMachine,
  makeMachine,
  type JoinWorld,
  type Machine,
} from "@/test/api/machine";

// SPEC E3: discovery/list|upsert|remove on compute-site/{siteId} and
// tpmAllowList/list|add|remove on compute-tenant/{tenantId}, in the B2 order;
// a machine made known (or its EK allowed) is admitted at its next join.
let world: JoinWorld;
let keys: { tenantAdmin: string; tenantPoolAdmin: string; poolScopedAdmin: string; otherTenantAdmin: string };

beforeAll(async () => {
  world = await createJoinWorld();
  const t = world.tenantId;
  keys = {
    tenantAdmin: await createServiceKey(t, [{ tenantId: t, poolId: null, role: "tenant_admin" }]),
    tenantPoolAdmin: world.keys.admin, // pool-admin on every pool: attestation:read only
    poolScopedAdmin: world.keys.poolAdminA,
    otherTenantAdmin: await createServiceKey(world.other.tenantId, [
      { tenantId: world.other.tenantId, poolId: null, role: "tenant_admin" },
    ]),
  };
});

const site = (extra: Record<string, unknown> = {}) => ({ tenantId: world.tenantId, siteId: world.siteId, ...extra });
const entry = (machine: Machine, assignedPoolId: string | null = null) => ({
  systemUuid: machine.systemUuid,
  macAddresses: machine.macAddresses,
  assignedPoolId,
});
const uuid = (n: number) => `5e5e5e5e-0000-4000-8000-${String(n).padStart(12, "0")}`;
const manyMachines = (count: number, offset = 0) =>
  Array.from({ length: count }, (_, i) => ({
    systemUuid: uuid(offset + i),
    macAddresses: [
      `02:5e:00:00:${((offset + i) >> 8).toString(16).padStart(2, "0")}:${((offset + i) & 255).toString(16).padStart(2, "0")}`,
    ],
    assignedPoolId: null,
  }));

describe("discovery methods", () => {
  it("upsert answers created / updated / unchanged; list pages by UUID and finds by MAC prefix; remove answers removed", async () => {
    const [m1, m2] = [await makeMachine(), await makeMachine()];
    const first = await callMethod("discovery/upsert", site({ machines: [entry(m1), entry(m2)] }), { bearer: keys.tenantAdmin });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ created: 2, updated: 0, unchanged: 0 });
    const second = await callMethod("discovery/upsert", site({ machines: [entry(m1, world.pools.b), entry(m2)] }), {
      bearer: keys.tenantAdmin,
    });
    expect(second.body).toEqual({ created: 0, updated: 1, unchanged: 1 });

    const byMac = await callMethod("discovery/list", site({ query: m1.macAddresses[0]!.slice(0, 14) }), { bearer: keys.tenantPoolAdmin });
    expect(byMac.status).toBe(200);
    expect(byMac.body.machines).toEqual([expect.objectContaining({ systemUuid: m1.systemUuid, assignedPoolId: world.pools.b })]);
    const page = await callMethod("discovery/list", site({ limit: 1 }), { bearer: keys.tenantAdmin });
    expect(page.body.machines).toHaveLength(1);
    expect(page.body.nextCursor).toBe(page.body.machines[0].systemUuid);

    const removed = await callMethod("discovery/remove", site({ systemUuids: [m2.systemUuid] }), { bearer: keys.tenantAdmin });
    expect(removed.body).toEqual({ removed: 1 });
  });

  it("dryRun answers what would change and writes nothing (no row, no event)", async () => {
    const db = await getDb();
    const machines = manyMachines(3, 8000);
    const eventsBefore = await db.event.count({ where: { siteId: world.siteId, type: "compute.discovery.changed" } });
    const preview = await callMethod("discovery/upsert", site({ machines, dryRun: true }), { bearer: keys.tenantAdmin });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body).toEqual({ created: 3, updated: 0, unchanged: 0, dryRun: true });
    expect(
      await db.discoveredMachine.count({ where: { siteId: world.siteId, systemUuid: { in: machines.map((m) => m.systemUuid) } } }),
    ).toBe(0);
    expect(await db.event.count({ where: { siteId: world.siteId, type: "compute.discovery.changed" } })).toBe(eventsBefore);
    expectError(
      await callMethod("discovery/upsert", site({ machines, dryRun: "yes" }), { bearer: keys.tenantAdmin }),
      400,
      "INVALID_ARGUMENT",
    );
    // the preview needs the permission the change needs
    expectError(
      await callMethod("discovery/upsert", site({ machines, dryRun: true }), { bearer: keys.tenantPoolAdmin }),
      403,
      "PERMISSION_DENIED",
    );
  });

  it("takes 1,000 machines at once and refuses 1,001; one bad row or a pool of another site writes nothing", async () => {
    const thousand = await callMethod("discovery/upsert", site({ machines: manyMachines(1000) }), { bearer: keys.tenantAdmin });
    expect(thousand.status, thousand.text).toBe(200);
    expect(thousand.body.created).toBe(1000);
    const tooMany = await callMethod("discovery/upsert", site({ machines: manyMachines(1001, 2000) }), { bearer: keys.tenantAdmin });
    // upsert takes up to 1 MiB (1,000 machines above were ~100 KB); the other methods keep 64 KiB
    expectError(
      await callMethod("discovery/list", site({ query: "x".repeat(70 * 1024) }), { bearer: keys.tenantAdmin }),
      413,
      "PAYLOAD_TOO_LARGE",
    );
    expectError(tooMany, 400, "INVALID_ARGUMENT");
    expect(tooMany.body.error.details[0].field).toBe("machines");

    const db = await getDb();
    const before = await db.discoveredMachine.count({ where: { siteId: world.siteId } });
    const rows = manyMachines(3, 5000);
    const bad = await callMethod("discovery/upsert", site({ machines: [...rows, { ...rows[0]!, systemUuid: "nope" }] }), {
      bearer: keys.tenantAdmin,
    });
    expectError(bad, 400, "INVALID_ARGUMENT");
    expect(bad.body.error.details[0].field).toBe("machines.3.systemUuid");
    const foreign = await callMethod("discovery/upsert", site({ machines: [{ ...rows[0]!, assignedPoolId: world.pools.otherSite }] }), {
      bearer: keys.tenantAdmin,
    });
    expectError(foreign, 400, "INVALID_ARGUMENT");
    expect(foreign.body.error.message).toContain(`${world.pools.otherSite} is not a pool of site ${world.siteId}`);
    expect(await db.discoveredMachine.count({ where: { siteId: world.siteId } })).toBe(before);
  });

  it("is decided on compute-site in the B2 order: manage needs tenant-admin; pool-scoped grants reach no site; other tenants", async () => {
    const machines = manyMachines(1, 9000);
    expectError(await callMethod("discovery/upsert", site({ machines }), { bearer: keys.tenantPoolAdmin }), 403, "PERMISSION_DENIED");
    expectError(await callMethod("discovery/list", site(), { bearer: keys.poolScopedAdmin }), 403, "PERMISSION_DENIED");
    expectError(await callMethod("discovery/list", site(), { bearer: keys.otherTenantAdmin }), 403, "PERMISSION_DENIED");
    // a site that is not the tenant's: NOT_FOUND for a covering grant, PERMISSION_DENIED (not NOT_FOUND) without one
    expectError(await callMethod("discovery/list", site({ siteId: world.other.siteId }), { bearer: keys.tenantAdmin }), 404, "NOT_FOUND");
    expectError(
      await callMethod("discovery/list", site({ siteId: "no-such-site" }), { bearer: keys.poolScopedAdmin }),
      403,
      "PERMISSION_DENIED",
    );
    expectError(
      await callMethod("discovery/list", site({ siteId: "no such site" }), { bearer: keys.tenantAdmin }),
      400,
      "INVALID_ARGUMENT",
    );
    expectError(await callMethod("discovery/list", site(), { bearer: null }), 401, "UNAUTHENTICATED");
  });

  it("a machine made known is admitted at its next fresh join; forgotten, it is deferred again; pending requests stay pending", async () => {
    const machine = await makeMachine();
    const deferred = await join(machine, world.tokens.a);
    expect(deferred.status).toBe(202);
    expect(deferred.body.reasons).toEqual(["unknown-to-discovery"]);
    await callMethod("discovery/upsert", site({ machines: [entry(machine)] }), { bearer: keys.tenantAdmin });

    const again = await join(machine, world.tokens.a); // the same CSR: its request is still pending
    expect(again.status).toBe(202);
    expect(again.body.requestId).toBe(deferred.body.requestId);
    const fresh = await join(await makeMachine({ systemUuid: machine.systemUuid, macAddresses: machine.macAddresses }), world.tokens.a);
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.status).toBe("admitted");

    await callMethod("discovery/remove", site({ systemUuids: [machine.systemUuid] }), { bearer: keys.tenantAdmin });
    const forgotten = await join(await makeMachine({ systemUuid: machine.systemUuid, macAddresses: machine.macAddresses }), world.tokens.a);
    expect(forgotten.status).toBe(202);
  });

  it("publishes compute.discovery.changed, which the site's pools read with events/list", async () => {
    await callMethod("discovery/upsert", site({ machines: manyMachines(2, 7000) }), { bearer: keys.tenantAdmin });
    const events = await callMethod(
      "events/list",
      { tenantId: world.tenantId, poolId: world.pools.b, types: ["compute.discovery.changed"], limit: 200 },
      { bearer: world.keys.viewer },
    );
    expect(events.status, events.text).toBe(200);
    const last = events.body.events.at(-1);
    expect(last).toMatchObject({
      type: "compute.discovery.changed",
      data: { verb: "upsert", siteId: world.siteId, created: "2", actor: keys.tenantAdmin.slice(0, keys.tenantAdmin.indexOf(".")) },
    });
  });
});

describe("tpmAllowList methods", () => {
  it("add by PEM (the join's hash) or hash, idempotently; a TPM pool then admits that EK; removed, it is deferred again", async () => {
    const tpm = freshTpm();
    const ek = tpm.ekPublicKeyPem;
    // known to discovery, so only its TPM (proven by credential activation, SPEC F1) defers it
    const machine = () => knownMachine(world.inventory.known, { tpm });
    const denied = (await joinThroughTpm(await machine(), world.tokens.tpm)).response;
    expect(denied.status).toBe(202);
    expect(denied.body.reasons).toEqual(["tpm-ek-not-allowed"]);
    const tenant = { tenantId: world.tenantId };
    const added = await callMethod("tpmAllowList/add", { ...tenant, ekPublicKey: ek, note: "rack 7" }, { bearer: keys.tenantAdmin });
    expect(added.status, added.text).toBe(200);
    const { ekSha256 } = added.body;
    expect(ekSha256).toMatch(/^[0-9a-f]{64}$/);
    const stored = await (await getDb()).joinRequest.findUniqueOrThrow({ where: { id: denied.body.requestId } });
    expect(stored.tpmEkSha256).toBe(ekSha256); // the same function as the join's attestor
    expect((await callMethod("tpmAllowList/add", { ...tenant, ekSha256 }, { bearer: keys.tenantAdmin })).body).toMatchObject({
      ekSha256,
      note: "rack 7",
    });

    const listed = await callMethod("tpmAllowList/list", tenant, { bearer: world.keys.viewer });
    expect(listed.status).toBe(200);
    expect(listed.body.keys.map((key: { ekSha256: string }) => key.ekSha256)).toContain(ekSha256);

    const admitted = (await joinThroughTpm(await machine(), world.tokens.tpm)).response;
    expect(admitted.status, admitted.text).toBe(200);
    expect((await callMethod("tpmAllowList/remove", { ...tenant, ekSha256 }, { bearer: keys.tenantAdmin })).body).toEqual({ removed: 1 });
    const deferredAgain = (await joinThroughTpm(await machine(), world.tokens.tpm)).response;
    expect(deferredAgain.status).toBe(202);
    expect(deferredAgain.body.reasons).toEqual(["tpm-ek-not-allowed"]);
  });

  it("refuses bad input and callers without the permission", async () => {
    const tenant = { tenantId: world.tenantId };
    const both = await callMethod(
      "tpmAllowList/add",
      { ...tenant, ekSha256: "ab".repeat(32), ekPublicKey: "x" },
      { bearer: keys.tenantAdmin },
    );
    expectError(both, 400, "INVALID_ARGUMENT");
    const notPem = await callMethod(
      "tpmAllowList/add",
      { ...tenant, ekPublicKey: "-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----" },
      { bearer: keys.tenantAdmin },
    );
    expectError(notPem, 400, "INVALID_ARGUMENT");
    expect(notPem.body.error.details[0].field).toBe("ekPublicKey");
    expectError(
      await callMethod("tpmAllowList/add", { ...tenant, ekSha256: "xyz" }, { bearer: keys.tenantAdmin }),
      400,
      "INVALID_ARGUMENT",
    );
    expectError(
      await callMethod("tpmAllowList/add", { ...tenant, ekSha256: "ab".repeat(32) }, { bearer: keys.tenantPoolAdmin }),
      403,
      "PERMISSION_DENIED",
    );
    expectError(await callMethod("tpmAllowList/list", tenant, { bearer: keys.poolScopedAdmin }), 403, "PERMISSION_DENIED");
    expectError(await callMethod("tpmAllowList/list", tenant, { bearer: keys.otherTenantAdmin }), 403, "PERMISSION_DENIED");
  });
});
