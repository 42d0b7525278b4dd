import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { subtle, x509 } from "@/server/pki/x509";
import { errorCode } from "@/test/api/api-client";
import { eventsOf, storedRequest } from "@/test/api/world";
import {
  ALLOWED_EK_PEM,
  createJoinWorld,
  csrSha256,
  DEMO_EK_SHA256,
  demoTpm,
  freshTpm,
  join,
  joinThroughTpm,
  knownMachine,
  makeMachine,
  unknownEkPem,
  type JoinWorld,
} from "@/test/api/machine";

// SPEC B5: the machine's join — the attestors' verdicts and the first join's outcomes.
let world: JoinWorld;

beforeAll(async () => {
  world = await createJoinWorld();
});

describe("nodes/join: admitted", () => {
  it("a machine the inventory knows, with real identifiers, is admitted with a certificate signed by the tenant CA", async () => {
    const machine = await knownMachine(world.inventory.known);
    const response = await join(machine, world.tokens.a);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["caCertificate", "certificate", "nodeId", "status"]);
    expect(response.body.status).toBe("admitted");
    expect(response.body.nodeId).toMatch(/^node_[0-9a-hjkmnp-tv-z]{26}$/);

    const certificate = new x509.X509Certificate(response.body.certificate);
    const ca = new x509.X509Certificate(response.body.caCertificate);
    expect(certificate.subject).toBe(`CN=${machine.hostname}`);
    expect(certificate.issuer).toBe(ca.subject);
    expect(await certificate.verify({ publicKey: ca.publicKey, signatureOnly: true })).toBe(true);
    const san = certificate.getExtension(x509.SubjectAlternativeNameExtension);
    expect(san?.names.items.map((name) => name.value)).toEqual([machine.hostname]);
    const days = (certificate.notAfter.getTime() - certificate.notBefore.getTime()) / 86_400_000;
    expect(days).toBe(30);
    // the CSR's own key is certified
    const csr = new x509.Pkcs10CertificateRequest(machine.csr);
    expect(Buffer.from(certificate.publicKey.rawData)).toEqual(Buffer.from(csr.publicKey.rawData));

    const db = await getDb();
    const node = await db.node.findUniqueOrThrow({ where: { id: response.body.nodeId } });
    expect(node).toMatchObject({
      tenantId: world.tenantId,
      siteId: world.siteId,
      poolId: world.pools.a,
      hostname: machine.hostname,
      csrSha256: csrSha256(machine.csr),
      joinRequestId: null,
      certSerial: certificate.serialNumber,
    });
  });

  it("one CA per tenant: every node of the tenant gets the same CA certificate", async () => {
    const first = await join(await knownMachine(world.inventory.known), world.tokens.b);
    const second = await join(await knownMachine(world.inventory.known), world.tokens.a);
    expect(first.status).toBe(200);
    expect(second.body.caCertificate).toBe(first.body.caCertificate);
  });

  it("a known machine joining a TPM pool with an allowed EK it proves (SPEC F1) is admitted, and its EK hash recorded", async () => {
    const machine = await knownMachine(world.inventory.known, { tpm: demoTpm() });
    const { response } = await joinThroughTpm(machine, world.tokens.tpm);
    expect(response.status).toBe(200);
    const node = await (await getDb()).node.findUniqueOrThrow({ where: { id: response.body.nodeId } });
    expect(node).toMatchObject({ tpmEkSha256: DEMO_EK_SHA256, tpmEkProven: true });
  });

  it("a site enrollment key admits a machine whose inventory entry assigns it a pool, into that pool", async () => {
    const machine = await knownMachine(world.inventory.assignedToB);
    const response = await join(machine, world.siteKey);
    expect(response.status).toBe(200);
    const node = await (await getDb()).node.findUniqueOrThrow({ where: { id: response.body.nodeId } });
    expect(node.poolId).toBe(world.pools.b);
  });

  it("MACs are matched case-insensitively (normalised to lowercase); with the entry's UUID, one of its MACs is enough", async () => {
    const entry = await knownMachine(world.inventory.known);
    const machine = await makeMachine({
      systemUuid: entry.systemUuid,
      macAddresses: ["02:00:00:00:00:01", entry.macAddresses[0]!.toUpperCase()],
    });
    expect((await join(machine, world.tokens.a)).status).toBe(200);
  });
});

describe("nodes/join: deferred into a pending request", () => {
  const expectPending = async (response: Awaited<ReturnType<typeof join>>, reasons: string[]) => {
    expect(response.status).toBe(202);
    expect(Object.keys(response.body).sort()).toEqual(["expiresAt", "reasons", "requestId", "status"]);
    expect(response.body).toMatchObject({ status: "pending", reasons });
    expect(response.body.requestId).toMatch(/^jreq_[0-9a-hjkmnp-tv-z]{26}$/);
    return storedRequest(response.body.requestId);
  };

  it("unknown to discovery: a pending request in the token's pool, expiring in 24 h, with its created event", async () => {
    const machine = await makeMachine();
    const before = Date.now();
    const response = await join(machine, world.tokens.a);
    const request = await expectPending(response, ["unknown-to-discovery"]);
    expect(request).toMatchObject({
      state: "pending",
      poolId: world.pools.a,
      siteId: world.siteId,
      tenantId: world.tenantId,
      hostname: machine.hostname,
      systemUuid: machine.systemUuid,
      serialNumber: machine.serialNumber,
      macAddresses: machine.macAddresses,
      tpmEkSha256: null,
      csrSha256: csrSha256(machine.csr),
    });
    const ttl = new Date(response.body.expiresAt).getTime() - before;
    expect(ttl).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600_000 + 1000);
    const events = await eventsOf(request.id);
    expect(events.map((event) => event.type)).toEqual(["security.join-request.created"]);
  });

  it.each([
    ["To Be Filled By O.E.M.", { serialNumber: "To Be Filled By O.E.M." }],
    ["Default string (any case)", { serialNumber: "DEFAULT STRING" }],
    ["System Serial Number", { serialNumber: "System Serial Number" }],
    ["Not Specified", { serialNumber: "Not Specified" }],
    ["0123456789", { serialNumber: "0123456789" }],
    ["an empty serial", { serialNumber: "" }],
    ["a whitespace serial", { serialNumber: "   " }],
    ["None", { serialNumber: "None" }],
    ["N/A", { serialNumber: "n/a" }],
  ])("placeholder serial (%s) → placeholder-hardware-id", async (_name, hardware) => {
    // known to discovery (its UUID and MACs), so hardware is the only deferral
    const machine = await knownMachine(world.inventory.known, hardware);
    const request = await expectPending(await join(machine, world.tokens.a), ["placeholder-hardware-id"]);
    expect(request.serialNumber).toBe(machine.serialNumber); // stored as reported
  });

  it.each([
    ["all-zero UUID", "00000000-0000-0000-0000-000000000000"],
    ["all-F UUID", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"],
    ["the well-known placeholder UUID", "03000200-0400-0500-0006-000700080009"],
  ])(
    "placeholder UUID (%s) → placeholder-hardware-id; it names no machine, so even a known MAC leaves it unknown (SPEC G3)",
    async (_name, systemUuid) => {
      const machine = await makeMachine({ systemUuid, macAddresses: world.inventory.known.macAddresses });
      await expectPending(await join(machine, world.tokens.a), ["placeholder-hardware-id", "unknown-to-discovery"]);
    },
  );

  it("a placeholder UUID never matches the inventory; unknown MACs too → both reasons, in attestor order", async () => {
    const machine = await makeMachine({ systemUuid: "00000000-0000-0000-0000-000000000000" });
    await expectPending(await join(machine, world.tokens.a), ["placeholder-hardware-id", "unknown-to-discovery"]);
  });

  it("a TPM pool: an EK on no allow-list → tpm-ek-not-allowed, with its hash recorded", async () => {
    const machine = await knownMachine(world.inventory.known, { tpm: freshTpm() });
    const request = await expectPending((await joinThroughTpm(machine, world.tokens.tpm)).response, ["tpm-ek-not-allowed"]);
    expect(request.tpmEkSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(request.tpmEkSha256).not.toBe(DEMO_EK_SHA256);
    expect(request.tpmEkProven).toBe(true);
  });

  it("all three attestors defer at once", async () => {
    const machine = await makeMachine({ serialNumber: "Not Specified", tpm: freshTpm() });
    await expectPending((await joinThroughTpm(machine, world.tokens.tpm)).response, [
      "placeholder-hardware-id",
      "unknown-to-discovery",
      "tpm-ek-not-allowed",
    ]);
  });

  it("a pool without TPM does not refuse an EK without an AK, and does not record it: only a proven EK is the machine's (SPEC G2)", async () => {
    const machine = await knownMachine(world.inventory.known, { ekPublicKey: await unknownEkPem() });
    const response = await join(machine, world.tokens.a);
    expect(response.status).toBe(200);
    const node = await (await getDb()).node.findUniqueOrThrow({ where: { id: response.body.nodeId } });
    expect(node).toMatchObject({ tpmEkSha256: null, tpmEkProven: false });
  });

  it("a site enrollment key and an unknown machine → an unclaimed site request (poolId null)", async () => {
    const request = await expectPending(await join(await makeMachine(), world.siteKey), ["unknown-to-discovery"]);
    expect(request).toMatchObject({ poolId: null, siteId: world.siteId, enrollKeyId: world.siteKey.slice(5).split(".")[0] });
  });

  it("a site enrollment key and a machine the inventory knows but assigns no pool → unclaimed, unknown-to-discovery", async () => {
    const request = await expectPending(await join(await knownMachine(world.inventory.known), world.siteKey), ["unknown-to-discovery"]);
    expect(request.poolId).toBeNull();
  });

  it("a site enrollment key and an assigned machine with a placeholder serial → deferred into the assigned pool", async () => {
    const machine = await knownMachine(world.inventory.assignedToB, { serialNumber: "To Be Filled By O.E.M." });
    const request = await expectPending(await join(machine, world.siteKey), ["placeholder-hardware-id"]);
    expect(request.poolId).toBe(world.pools.b);
  });
});

describe("nodes/join: refused", () => {
  it("a CSR whose key or signature is weak (SPEC F4) → 400 naming csr, nothing recorded, the token unused", async () => {
    const db = await getDb();
    const usesBefore = (await db.joinToken.findUniqueOrThrow({ where: { id: world.tokens.a.slice(5, world.tokens.a.indexOf(".")) } })).uses;
    for (const file of ["rsa-512-sha1", "rsa-1024-sha256", "p-192-sha256", "rsa-2048-sha1"]) {
      const csr = readFileSync(new URL(`../../fixtures/weak-csrs/${file}.csr.pem`, import.meta.url), "utf8");
      const machine = await knownMachine(world.inventory.known, { csr });
      const response = await join(machine, world.tokens.a);
      expect(response.status, file).toBe(400);
      expect(response.body.error.details, file).toEqual([expect.objectContaining({ field: "csr" })]);
      expect(await db.joinRequest.count({ where: { csrSha256: csrSha256(csr) } }), file).toBe(0);
      expect(await db.node.count({ where: { csrSha256: csrSha256(csr) } }), file).toBe(0);
    }
    expect((await db.joinToken.findUniqueOrThrow({ where: { id: world.tokens.a.slice(5, world.tokens.a.indexOf(".")) } })).uses).toBe(
      usesBefore,
    );
  });

  it("an Ed25519 CSR is admitted, its certificate certifying that key", async () => {
    const keys = (await subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const csr = (
      await x509.Pkcs10CertificateRequestGenerator.create({ name: "CN=ed25519.join.test", keys, signingAlgorithm: { name: "Ed25519" } })
    ).toString("pem");
    const machine = await knownMachine(world.inventory.known, { csr });
    const response = await join(machine, world.tokens.a);
    expect(response.status).toBe(200);
    const certificate = new x509.X509Certificate(response.body.certificate);
    expect(Buffer.from(certificate.publicKey.rawData)).toEqual(Buffer.from(new x509.Pkcs10CertificateRequest(csr).publicKey.rawData));
  });

  it("a TPM pool and no TPM, or an EK without an AK (SPEC F1) → 403 PERMISSION_DENIED outright, no request", async () => {
    for (const machine of [
      await knownMachine(world.inventory.known),
      await knownMachine(world.inventory.known, { ekPublicKey: ALLOWED_EK_PEM }),
    ]) {
      const response = await join(machine, world.tokens.tpm);
      expect(response.status).toBe(403);
      expect(errorCode(response)).toBe("PERMISSION_DENIED");
      expect(response.body.error.message).toContain("tpm.akPublic");
      expect(await (await getDb()).joinRequest.count({ where: { csrSha256: csrSha256(machine.csr) } })).toBe(0);
    }
  });

  it("a join into an archived pool → 403 PERMISSION_DENIED, known or not", async () => {
    for (const machine of [await makeMachine(), await knownMachine(world.inventory.known)]) {
      const response = await join(machine, world.tokens.archived);
      expect(response.status).toBe(403);
      expect(errorCode(response)).toBe("PERMISSION_DENIED");
    }
  });

  it("a site key join into an archived assigned pool → 403 PERMISSION_DENIED", async () => {
    const db = await getDb();
    const entry = await makeMachine();
    await db.discoveredMachine.create({
      data: {
        id: `disc_${entry.serialNumber.toLowerCase()}`,
        tenantId: world.tenantId,
        siteId: world.siteId,
        systemUuid: entry.systemUuid,
        macAddresses: [],
        assignedPoolId: world.pools.archived,
      },
    });
    const response = await join(await knownMachine(entry), world.siteKey);
    expect(response.status).toBe(403);
    expect(errorCode(response)).toBe("PERMISSION_DENIED");
  });
});
