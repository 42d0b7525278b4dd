import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { callMethod, expectError } from "@/test/api/api-client";
import { createServiceKey, createWorld, type World } from "@/test/api/world";
import { readTrustAnchor } from "@/lib/tpm/trust-anchor";

// SPEC I1: tpmTrustStore/list|add|remove on compute-tenant/{tenantId}
// (compute:attestation:read to list, :manage to change, as the allow-list):
// one PEM CA certificate, idempotent, each change one event.
let world: World;
let keys: { tenantAdmin: string; otherTenantAdmin: string };

const fixture = (name: string) => readFileSync(`fixtures/tpm-ek-certificates/${name}`, "utf8");
const ROOT = fixture("localca-root.pem");
const OTHER_ROOT = fixture("other-root.pem");

beforeAll(async () => {
  world = await createWorld();
  keys = {
    tenantAdmin: await createServiceKey(world.tenantId, [{ tenantId: world.tenantId, poolId: null, role: "tenant_admin" }]),
    otherTenantAdmin: await createServiceKey(world.other.tenantId, [
      { tenantId: world.other.tenantId, poolId: null, role: "tenant_admin" },
    ]),
  };
});

const tenant = (extra: Record<string, unknown> = {}) => ({ tenantId: world.tenantId, ...extra });
const trustStoreEvents = async () => {
  const events = await callMethod(
    "events/list",
    { tenantId: world.tenantId, poolId: world.pools.a, types: ["compute.tpm-trust-store.changed"] },
    { bearer: world.keys.viewer },
  );
  expect(events.status, events.text).toBe(200);
  return events.body.events as { data: { verb: string; sha256: string; subject: string } }[];
};

describe("tpmTrustStore methods", () => {
  it("add answers the root (subject, fingerprint, validity) and is idempotent; list pages; remove is idempotent; one event per change", async () => {
    const expected = readTrustAnchor(ROOT);
    const added = await callMethod("tpmTrustStore/add", tenant({ certificate: ROOT }), { bearer: keys.tenantAdmin });
    expect(added.status, added.text).toBe(200);
    expect(added.body).toEqual({
      sha256: expected.sha256,
      subject: "CN=swtpm-localca-rootca",
      notBefore: expected.notBefore.toISOString(),
      notAfter: expected.notAfter.toISOString(),
      createdAt: expect.any(String),
    });
    const again = await callMethod("tpmTrustStore/add", tenant({ certificate: ROOT }), { bearer: keys.tenantAdmin });
    expect(again.body).toEqual(added.body);
    expect((await callMethod("tpmTrustStore/add", tenant({ certificate: OTHER_ROOT }), { bearer: keys.tenantAdmin })).status).toBe(200);

    const listed = await callMethod("tpmTrustStore/list", tenant(), { bearer: world.keys.viewer });
    expect(listed.status, listed.text).toBe(200);
    const fingerprints = listed.body.roots.map((root: { sha256: string }) => root.sha256);
    expect(fingerprints).toHaveLength(2);
    expect(fingerprints).toContain(expected.sha256);
    const page = await callMethod("tpmTrustStore/list", tenant({ limit: 1 }), { bearer: world.keys.admin });
    expect(page.body.roots).toHaveLength(1);
    expect(page.body.nextCursor).toBe(fingerprints[0]);
    const next = await callMethod("tpmTrustStore/list", tenant({ cursor: page.body.nextCursor }), { bearer: world.keys.admin });
    expect(next.body).toEqual({ roots: [listed.body.roots[1]] });

    const removed = await callMethod("tpmTrustStore/remove", tenant({ certificate: OTHER_ROOT }), { bearer: keys.tenantAdmin });
    expect(removed.body).toEqual({ removed: 1 });
    expect((await callMethod("tpmTrustStore/remove", tenant({ certificate: OTHER_ROOT }), { bearer: keys.tenantAdmin })).body).toEqual({
      removed: 0,
    });
    const events = await trustStoreEvents();
    expect(events.map((event) => event.data.verb)).toEqual(["add", "add", "remove"]);
    expect(events[0]!.data).toMatchObject({ sha256: expected.sha256, subject: "CN=swtpm-localca-rootca" });
  });

  it("a non-CA certificate, unreadable text or two blocks is 400 naming certificate; nothing stored", async () => {
    const before = (await callMethod("tpmTrustStore/list", tenant(), { bearer: keys.tenantAdmin })).body.roots.length;
    for (const certificate of [
      fixture("ek-rsa.pem"),
      "hello",
      "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
      ROOT + OTHER_ROOT,
      fixture("ek-rsa.pub.pem"),
    ]) {
      const refused = await callMethod("tpmTrustStore/add", tenant({ certificate }), { bearer: keys.tenantAdmin });
      expectError(refused, 400, "INVALID_ARGUMENT");
      expect(refused.body.error.details[0].field).toBe("certificate");
    }
    const missing = await callMethod("tpmTrustStore/add", tenant(), { bearer: keys.tenantAdmin });
    expectError(missing, 400, "INVALID_ARGUMENT");
    expect(missing.body.error.details[0].field).toBe("certificate");
    const notEk = await callMethod("tpmTrustStore/remove", tenant({ certificate: "hello" }), { bearer: keys.tenantAdmin });
    expectError(notEk, 400, "INVALID_ARGUMENT");
    expect((await callMethod("tpmTrustStore/list", tenant(), { bearer: keys.tenantAdmin })).body.roots).toHaveLength(before);
  });

  it("viewer and tenant-wide pool-admin read only; a pool-scoped admin, another tenant, no key: refused", async () => {
    const add = (bearer: string | null) => callMethod("tpmTrustStore/add", tenant({ certificate: OTHER_ROOT }), { bearer });
    const remove = (bearer: string | null) => callMethod("tpmTrustStore/remove", tenant({ certificate: ROOT }), { bearer });
    for (const reader of [world.keys.viewer, world.keys.admin]) {
      expect((await callMethod("tpmTrustStore/list", tenant(), { bearer: reader })).status).toBe(200);
      expectError(await add(reader), 403, "PERMISSION_DENIED");
      expectError(await remove(reader), 403, "PERMISSION_DENIED");
    }
    expectError(await callMethod("tpmTrustStore/list", tenant(), { bearer: world.keys.poolAdminA }), 403, "PERMISSION_DENIED");
    expectError(await callMethod("tpmTrustStore/list", tenant(), { bearer: keys.otherTenantAdmin }), 403, "PERMISSION_DENIED");
    expectError(await add(keys.otherTenantAdmin), 403, "PERMISSION_DENIED");
    expectError(await callMethod("tpmTrustStore/list", tenant(), { bearer: null }), 401, "UNAUTHENTICATED");
    // what the refused callers tried changed nothing
    const roots = (await callMethod("tpmTrustStore/list", tenant(), { bearer: keys.tenantAdmin })).body.roots;
    expect(roots.map((root: { subject: string }) => root.subject)).toEqual(["CN=swtpm-localca-rootca"]);
  });
});
