import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { EK_CERTIFICATE_NV_INDEX, createLocalCa, type LocalCa } from "@/test/harness/swtpm-ek-certificates";
import { startSwtpm, type Swtpm, type SwtpmAk } from "@/test/harness/swtpm";
import { callMethod, expectError } from "@/test/api/api-client";
import { createServiceKey } from "@/test/api/world";
import { createJoinWorld, csrSha256, join, knownMachine, type JoinWorld, type Machine } from "@/test/api/machine";

// SPEC I1 with a real TPM manufactured by a vendor CA (swtpm_setup
// --create-ek-cert under a swtpm_localca of this test's own): the EK on no
// allow-list is admitted because its certificate, read from the TPM's NV,
// chains to a root of the tenant's trust store; without the root the join is
// deferred and the request shows issuer, serial and why. A certificate for
// any key but the EK that answers the challenge never admits.
// Fails (never skips) without swtpm.
let world: JoinWorld;
let ca: LocalCa;
let tpm: Swtpm;
let ak: SwtpmAk;
let owner: string;
const ek = { rsa: "", ecc: "" };
const certificate = { rsa: "", ecc: "" };
let issuer: string;
let root: string;

const pem = (der: Buffer) =>
  `-----BEGIN CERTIFICATE-----\n${der.toString("base64").replace(/.{64}/g, "$&\n").replace(/\n$/, "")}\n-----END CERTIFICATE-----\n`;

beforeAll(async () => {
  world = await createJoinWorld();
  ca = await createLocalCa();
  tpm = await startSwtpm({ manufacture: (stateDir) => ca.manufacture(stateDir) });
  for (const type of ["rsa", "ecc"] as const) {
    await tpm.tool("tpm2_nvread", [EK_CERTIFICATE_NV_INDEX[type], "-o", `ek-cert-${type}.der`]);
    certificate[type] = pem(await readFile(tpm.path(`ek-cert-${type}.der`)));
  }
  // swtpm_setup made the EKs persistent (RSA at 0x81010001, ECC P-384 at 0x81010016): read, not created again.
  for (const [type, handle] of [
    ["rsa", "0x81010001"],
    ["ecc", "0x81010016"],
  ] as const) {
    await tpm.tool("tpm2_readpublic", ["-c", handle, "-o", `ek-${type}.pem`, "-f", "pem"]);
    ek[type] = await readFile(tpm.path(`ek-${type}.pem`), "utf8");
  }
  ak = await tpm.createAk("rsa");
  [issuer, root] = [await ca.issuerPem(), await ca.rootPem()];
  owner = await createServiceKey(world.tenantId, [{ tenantId: world.tenantId, poolId: null, role: "tenant_admin" }]);
});

afterAll(async () => {
  await tpm?.stop();
  await ca?.remove();
});

interface TpmFields {
  ekPublicKey?: string;
  ekCertificate?: string;
  ekCertificateChain?: string;
}

const body = (machine: Machine, tpmFields: TpmFields, activation?: { challengeId: string; secret: string }) => ({
  csr: machine.csr,
  hostname: machine.hostname,
  hardware: { systemUuid: machine.systemUuid, serialNumber: machine.serialNumber, macAddresses: machine.macAddresses },
  tpm: { ekPublicKey: ek.rsa, akPublic: ak.akPublic.toString("base64"), ...tpmFields, ...(activation ? { activation } : {}) },
});

const activate = async (challenge: { body: { credentialBlob: string; encryptedSecret: string } }) =>
  (
    await tpm.activate(Buffer.from(challenge.body.credentialBlob, "base64"), Buffer.from(challenge.body.encryptedSecret, "base64"), {
      ak,
    })
  ).toString("base64");

/** Challenge → tpm2_activatecredential on the swtpm → the activated join, both steps with the same tpm fields. */
async function joinWithSwtpm(machine: Machine, tpmFields: TpmFields) {
  const challenge = await join(body(machine, tpmFields), world.tokens.tpm);
  expect(challenge.status, challenge.text).toBe(202);
  expect(challenge.body.status).toBe("challenge");
  const activation = { challengeId: challenge.body.challengeId, secret: await activate(challenge) };
  return join(body(machine, tpmFields, activation), world.tokens.tpm);
}

async function pendingRequest(requestId: string) {
  const listed = await callMethod(
    "joinRequests/list",
    { tenantId: world.tenantId, poolId: world.tpmPoolId },
    { bearer: world.keys.viewer },
  );
  expect(listed.status, listed.text).toBe(200);
  return listed.body.joinRequests.find((request: { id: string }) => request.id === requestId);
}

const withCertificate = () => ({ ekCertificate: certificate.rsa, ekCertificateChain: issuer });

describe("EK certificates at the join (swtpm)", () => {
  it("no root trusted yet: proven, deferred tpm-ek-not-allowed; the request shows issuer, serial and unknown-issuer", async () => {
    const response = await joinWithSwtpm(await knownMachine(world.inventory.known), withCertificate());
    expect(response.status, response.text).toBe(202);
    expect(response.body.reasons).toEqual(["tpm-ek-not-allowed"]);
    const request = await pendingRequest(response.body.requestId);
    expect(request.ekCertificate).toEqual({
      issuer: "CN=swtpm-localca",
      serial: expect.stringMatching(/^[0-9a-f]+$/),
      failure: "unknown-issuer",
      detail: expect.any(String),
    });
    expect(request.machine.tpmEkProven).toBe(true);
  });

  it("the root in the trust store: the EK, on no allow-list, is admitted", async () => {
    const added = await callMethod("tpmTrustStore/add", { tenantId: world.tenantId, certificate: root }, { bearer: owner });
    expect(added.status, added.text).toBe(200);
    const response = await joinWithSwtpm(await knownMachine(world.inventory.known), withCertificate());
    expect(response.status, response.text).toBe(200);
    const node = await (await getDb()).node.findUniqueOrThrow({ where: { id: response.body.nodeId } });
    expect(node.tpmEkProven).toBe(true);
    expect(await (await getDb()).tpmAllowedKey.count({ where: { tenantId: world.tenantId, ekSha256: node.tpmEkSha256! } })).toBe(0);
  });

  it("without its intermediate the chain does not verify: deferred, reason named", async () => {
    const response = await joinWithSwtpm(await knownMachine(world.inventory.known), { ekCertificate: certificate.rsa });
    expect(response.status, response.text).toBe(202);
    expect((await pendingRequest(response.body.requestId)).ekCertificate).toMatchObject({ failure: "unknown-issuer" });
  });

  it("its certificate with a signature bit flipped, the root trusted: proven, deferred tpm-ek-not-allowed, bad-signature named", async () => {
    const der = Buffer.from(certificate.rsa.replace(/-----[^-]+-----/g, "").replace(/\s+/g, ""), "base64");
    der[der.length - 3]! ^= 0x10; // inside the signature: the certified key (this TPM's EK) is unchanged
    const response = await joinWithSwtpm(await knownMachine(world.inventory.known), {
      ekCertificate: pem(der),
      ekCertificateChain: issuer,
    });
    expect(response.status, response.text).toBe(202);
    expect(response.body.reasons).toEqual(["tpm-ek-not-allowed"]);
    const request = await pendingRequest(response.body.requestId);
    expect(request.ekCertificate).toMatchObject({ issuer: "CN=swtpm-localca", failure: "bad-signature" });
    expect(request.machine.tpmEkProven).toBe(true);
  });

  it("a certificate for another key than ekPublicKey (the TPM's own ECC EK certificate, trusted root) → 400 naming tpm.ekPublicKey, no challenge", async () => {
    const machine = await knownMachine(world.inventory.known);
    const refused = await join(body(machine, { ekCertificate: certificate.ecc, ekCertificateChain: issuer }), world.tokens.tpm);
    expectError(refused, 400, "INVALID_ARGUMENT");
    expect(refused.body.error.details[0].field).toBe("tpm.ekPublicKey");
    const csr = csrSha256(machine.csr);
    expect(await (await getDb()).tpmChallenge.count({ where: { tenantId: world.tenantId, csrSha256: csr } })).toBe(0);
  });

  it("attack: another TPM's genuine certificate (same trusted vendor) never admits this TPM, at either step", async () => {
    // The victim: a second TPM of the same vendor CA; the attacker has its certificate and public EK, not the TPM.
    const victim = await startSwtpm({ manufacture: (stateDir) => ca.manufacture(stateDir) });
    let victimFields: TpmFields;
    try {
      await victim.tool("tpm2_nvread", [EK_CERTIFICATE_NV_INDEX.rsa, "-o", "ek-cert.der"]);
      await victim.tool("tpm2_readpublic", ["-c", "0x81010001", "-o", "ek.pem", "-f", "pem"]);
      victimFields = {
        ekPublicKey: await readFile(victim.path("ek.pem"), "utf8"),
        ekCertificate: pem(await readFile(victim.path("ek-cert.der"))),
        ekCertificateChain: issuer,
      };
    } finally {
      await victim.stop();
    }
    const stolenCertificate = { ekCertificate: victimFields.ekCertificate, ekCertificateChain: issuer };
    const machine = await knownMachine(world.inventory.known);
    // 1. the attacker's own EK with the victim's certificate: 400 before any challenge
    const first = await join(body(machine, stolenCertificate), world.tokens.tpm);
    expectError(first, 400, "INVALID_ARGUMENT");
    expect(first.body.error.details[0].field).toBe("tpm.ekPublicKey");
    // 2. a challenge for the attacker's own EK, activated by its own TPM, retried with the victim's certificate: 400
    const challenge = await join(body(machine, {}), world.tokens.tpm);
    expect(challenge.body.status).toBe("challenge");
    const activation = { challengeId: challenge.body.challengeId, secret: await activate(challenge) };
    expectError(await join(body(machine, stolenCertificate, activation), world.tokens.tpm), 400, "INVALID_ARGUMENT");
    // 3. the same activation presented with the victim's EK and certificate: the challenge was for another EK → 403
    expectError(await join(body(machine, victimFields, activation), world.tokens.tpm), 403, "PERMISSION_DENIED");
    // 4. a challenge made for the victim's EK: the attacker's TPM cannot recover it, and a guess is 403
    const victimChallenge = await join(body(machine, victimFields), world.tokens.tpm);
    expect(victimChallenge.body.status).toBe("challenge");
    await expect(activate(victimChallenge)).rejects.toThrow();
    const guessed = await join(
      body(machine, victimFields, { challengeId: victimChallenge.body.challengeId, secret: randomBytes(32).toString("base64") }),
      world.tokens.tpm,
    );
    expectError(guessed, 403, "PERMISSION_DENIED");
    const db = await getDb();
    const csr = csrSha256(machine.csr);
    expect(await db.node.count({ where: { csrSha256: csr } })).toBe(0);
    expect(await db.joinRequest.count({ where: { csrSha256: csr } })).toBe(0);
  });

  it("unreadable certificate or chain → 400 naming the field; a chain without a certificate → 400", async () => {
    const machine = await knownMachine(world.inventory.known);
    const cases: [TpmFields, string][] = [
      [{ ekCertificate: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n" }, "tpm.ekCertificate"],
      [
        { ekCertificate: certificate.rsa, ekCertificateChain: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n" },
        "tpm.ekCertificateChain",
      ],
      [{ ekCertificateChain: issuer }, "tpm.ekCertificateChain"],
      [{ ekCertificate: "not pem" }, "tpm.ekCertificate"],
    ];
    for (const [fields, field] of cases) {
      const refused = await join(body(machine, fields), world.tokens.tpm);
      expectError(refused, 400, "INVALID_ARGUMENT");
      expect(refused.body.error.details[0].field).toBe(field);
    }
  });
});
