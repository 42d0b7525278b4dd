import { createPublicKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { makeKeyAndCsr } from "@/server/pki/make-csr";
import { callMethod, expectError } from "@/test/api/api-client";
import { admitNode, callAsNode } from "@/test/api/node";
import { createServiceKey } from "@/test/api/world";
import {
  ALLOWED_EK_PEM,
  activatedBody,
  createJoinTokenRow,
  createJoinWorld,
  csrSha256,
  demoTpm,
  freshTpm,
  join,
  joinBody,
  knownMachine,
  type JoinWorld,
  type Machine,
} from "@/test/api/machine";

// SPEC Part G over HTTP: G1 (one reading of a key), G4 (a spent credential
// gets no work done), G10 (keys outside F4's list). Each refusal is checked
// in the database too: no request, no challenge, no token use, no event.
let world: JoinWorld;
let owner: string;

beforeAll(async () => {
  world = await createJoinWorld();
  owner = await createServiceKey(world.tenantId, [{ tenantId: world.tenantId, poolId: null, role: "tenant_admin" }]);
});

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), "utf8");
const tokenId = (bearer: string) => bearer.slice(5, bearer.indexOf("."));
const pemOf = (der: Buffer, label: string) =>
  `-----BEGIN ${label}-----\n${der.toString("base64").replace(/(.{64})/g, "$1\n")}\n-----END ${label}-----\n`;
const spki = (pem: string) => createPublicKey(pem).export({ type: "spki", format: "der" });

/** What a join left behind for a CSR (and the tenant's events), to show a refusal recorded nothing. */
async function recorded(csr: string, bearer: string) {
  const db = await getDb();
  const sha = csrSha256(csr);
  const token = await db.joinToken.findUniqueOrThrow({ where: { id: tokenId(bearer) } });
  return {
    requests: await db.joinRequest.count({ where: { csrSha256: sha } }),
    nodes: await db.node.count({ where: { csrSha256: sha } }),
    challenges: await db.tpmChallenge.count({ where: { csrSha256: sha } }),
    tokenUseRows: await db.joinTokenUse.count({ where: { tokenId: token.id, csrSha256: sha } }),
    tokenUses: token.uses,
    events: await db.event.count({ where: { tenantId: world.tenantId } }),
  };
}

const expectField = (response: Awaited<ReturnType<typeof join>>, field: string, message?: RegExp) => {
  expectError(response, 400, "INVALID_ARGUMENT");
  expect(response.body.error.details).toEqual([{ field, message: message ? expect.stringMatching(message) : expect.any(String) }]);
};

describe("G1: tpm.ekPublicKey is one PUBLIC KEY block, read once", () => {
  // The attack: the allow-listed EK (which the attacker cannot prove) first, as
  // X509 PUBLIC KEY, then the attacker's own EK, which its TPM can activate.
  const twoBlocks = (own: string) => pemOf(spki(ALLOWED_EK_PEM), "X509 PUBLIC KEY") + own;
  const ekOf = (machine: Machine) => machine.tpm!.ekPublicKeyPem;
  const cases: [string, (machine: Machine) => string, RegExp][] = [
    ["an allow-listed EK as X509 PUBLIC KEY, then the caller's own", (m) => twoBlocks(ekOf(m)), /holds 2 PEM blocks/],
    ["the caller's own, then the allow-listed EK", (m) => ekOf(m) + ALLOWED_EK_PEM, /holds 2 PEM blocks/],
    ["another label", (m) => pemOf(spki(ekOf(m)), "RSA PUBLIC KEY"), /is a PEM RSA PUBLIC KEY/],
    ["trailing text", (m) => `${ekOf(m)}trailing`, /nothing but whitespace/],
    ["bad base64", (m) => ekOf(m).replace(/\n[A-Za-z0-9+/]{4}/, "\n!!!!"), /nothing but whitespace|not base64/],
    [
      "a DER with trailing bytes",
      (m) => pemOf(Buffer.concat([spki(ekOf(m)), Buffer.from([0])]), "PUBLIC KEY"),
      /trailing or non-canonical DER/,
    ],
  ];
  it.each(cases)("%s → 400 naming tpm.ekPublicKey, nothing recorded", async (_, ekPublicKey, message) => {
    const machine = await knownMachine(world.inventory.known, { tpm: freshTpm() });
    const before = await recorded(machine.csr, world.tokens.tpm);
    const body = joinBody(machine) as { tpm: Record<string, unknown> };
    const response = await join({ ...body, tpm: { ...body.tpm, ekPublicKey: ekPublicKey(machine) } }, world.tokens.tpm);
    expectField(response, "tpm.ekPublicKey", message);
    expect(await recorded(machine.csr, world.tokens.tpm)).toEqual({ ...before, requests: 0, nodes: 0, challenges: 0, tokenUseRows: 0 });
  });

  it("tpmAllowList/add refuses the two-block PEM naming ekPublicKey, and allows nothing", async () => {
    const own = freshTpm().ekPublicKeyPem;
    const response = await callMethod("tpmAllowList/add", { tenantId: world.tenantId, ekPublicKey: twoBlocks(own) }, { bearer: owner });
    expectError(response, 400, "INVALID_ARGUMENT");
    expect(response.body.error.details).toEqual([{ field: "ekPublicKey", message: expect.stringMatching(/holds 2 PEM blocks/) }]);
    expect(await (await getDb()).tpmAllowedKey.count({ where: { tenantId: world.tenantId } })).toBe(2); // the world's two
  });

  it("csr: a second CERTIFICATE REQUEST block → 400 naming csr, nothing recorded", async () => {
    const machine = await knownMachine(world.inventory.known);
    const before = await recorded(machine.csr, world.tokens.a);
    const response = await join({ ...joinBody(machine), csr: machine.csr + (await makeKeyAndCsr("other.test")).csrPem }, world.tokens.a);
    expectField(response, "csr", /holds 2 PEM blocks/);
    expect(await recorded(machine.csr, world.tokens.a)).toEqual({ ...before, requests: 0, nodes: 0, tokenUseRows: 0 });
  });
});

describe("G4: a spent credential gets no work done", () => {
  const challengeFor = async (machine: Machine, bearer: string) => {
    const response = await join(machine, bearer);
    expect(response.status, response.text).toBe(202);
    expect(response.body.status).toBe("challenge");
    return response.body as { challengeId: string; credentialBlob: string; encryptedSecret: string };
  };

  it("maxUses 1, used by CSR A's challenge: CSR B → 401 with no challenge and no use; CSR A still finishes", async () => {
    const bearer = await createJoinTokenRow(world.tenantId, world.tpmPoolId, { maxUses: 1 });
    const a = await knownMachine(world.inventory.known, { tpm: demoTpm() });
    const challenge = await challengeFor(a, bearer);
    expect((await recorded(a.csr, bearer)).tokenUses).toBe(1); // the challenge is the token's use for CSR A
    const b = await knownMachine(world.inventory.known, { tpm: demoTpm() });
    const before = await recorded(b.csr, bearer);
    expectError(await join(b, bearer), 401, "UNAUTHENTICATED");
    expect(await recorded(b.csr, bearer)).toEqual({ ...before, challenges: 0, tokenUseRows: 0, tokenUses: 1 });
    const admitted = await join(activatedBody(a, challenge), bearer);
    expect(admitted.status, admitted.text).toBe(200);
    expect(await recorded(a.csr, bearer)).toMatchObject({ nodes: 1, tokenUseRows: 1, tokenUses: 1 }); // not counted twice
  });

  it("maxUses 1, used by an admitted CSR A: a TPM join with CSR B → 401, nothing recorded; CSR A's retry is answered as before", async () => {
    const bearer = await createJoinTokenRow(world.tenantId, world.tpmPoolId, { maxUses: 1 });
    const a = await knownMachine(world.inventory.known, { tpm: freshTpm() }); // not allow-listed: deferred
    const deferred = await join(activatedBody(a, await challengeFor(a, bearer)), bearer);
    expect(deferred.status, deferred.text).toBe(202);
    expect(deferred.body.reasons).toEqual(["tpm-ek-not-allowed"]);
    const b = await knownMachine(world.inventory.known, { tpm: demoTpm() });
    const before = await recorded(b.csr, bearer);
    expectError(await join(b, bearer), 401, "UNAUTHENTICATED");
    expect(await recorded(b.csr, bearer)).toEqual({ ...before, requests: 0, challenges: 0, tokenUseRows: 0, tokenUses: 1 });
    const retry = await join(a, bearer);
    expect(retry.status, retry.text).toBe(202);
    expect(retry.body).toMatchObject({ status: "pending", requestId: deferred.body.requestId });
  });

  it("maxUses 2: two CSRs' challenges use both; a third CSR → 401 with no challenge", async () => {
    const bearer = await createJoinTokenRow(world.tenantId, world.tpmPoolId, { maxUses: 2 });
    const [c, d, e] = [
      await knownMachine(world.inventory.known, { tpm: demoTpm() }),
      await knownMachine(world.inventory.known, { tpm: demoTpm() }),
      await knownMachine(world.inventory.known, { tpm: demoTpm() }),
    ];
    const first = await challengeFor(c, bearer);
    await challengeFor(d, bearer);
    expect((await recorded(d.csr, bearer)).tokenUses).toBe(2);
    const before = await recorded(e.csr, bearer);
    expectError(await join(e, bearer), 401, "UNAUTHENTICATED");
    expect(await recorded(e.csr, bearer)).toEqual({ ...before, challenges: 0, tokenUseRows: 0, tokenUses: 2 });
    expect((await join(activatedBody(c, first), bearer)).status).toBe(200);
    expect((await recorded(c.csr, bearer)).tokenUses).toBe(2);
  });

  it.each([
    ["revoked", { revoked: true }],
    ["expired", { expiresAt: new Date(Date.now() - 1000) }],
  ])("a %s token → 401 before any challenge", async (_, options) => {
    const bearer = await createJoinTokenRow(world.tenantId, world.tpmPoolId, options);
    const machine = await knownMachine(world.inventory.known, { tpm: demoTpm() });
    expectError(await join(machine, bearer), 401, "UNAUTHENTICATED");
    expect(await recorded(machine.csr, bearer)).toMatchObject({ challenges: 0, tokenUseRows: 0, tokenUses: 0 });
  });

  it("a CSR holds one live challenge: a second voids the first (answering it → 403, nothing recorded); one use", async () => {
    const bearer = await createJoinTokenRow(world.tenantId, world.tpmPoolId, { maxUses: 5 });
    const machine = await knownMachine(world.inventory.known, { tpm: demoTpm() });
    const first = await challengeFor(machine, bearer);
    const second = await challengeFor(machine, bearer);
    const db = await getDb();
    expect((await db.tpmChallenge.findUniqueOrThrow({ where: { id: first.challengeId } })).voidedAt).not.toBeNull();
    expect((await db.tpmChallenge.findUniqueOrThrow({ where: { id: second.challengeId } })).voidedAt).toBeNull();
    const before = await recorded(machine.csr, bearer);
    expectError(await join(activatedBody(machine, first), bearer), 403, "PERMISSION_DENIED");
    expect(await recorded(machine.csr, bearer)).toEqual({ ...before, requests: 0, nodes: 0, tokenUses: 1 });
    expect((await join(activatedBody(machine, second), bearer)).status).toBe(200);
    expect(await recorded(machine.csr, bearer)).toMatchObject({ nodes: 1, challenges: 2, tokenUseRows: 1, tokenUses: 1 });
  });

  it("ten challenges at once for a CSR that already has one leave exactly one live; one use", async () => {
    // Counted before, the CSR's count takes no lock: only the per-CSR lock
    // of issueTpmChallenge orders the voiding of concurrent challenges.
    const bearer = await createJoinTokenRow(world.tenantId, world.tpmPoolId, { maxUses: 5 });
    const machine = await knownMachine(world.inventory.known, { tpm: demoTpm() });
    await challengeFor(machine, bearer);
    const answers = await Promise.all(Array.from({ length: 10 }, () => join(machine, bearer)));
    expect(answers.map((answer) => answer.body?.status)).toEqual(Array(10).fill("challenge"));
    const db = await getDb();
    const live = await db.tpmChallenge.findMany({
      where: { tenantId: world.tenantId, csrSha256: csrSha256(machine.csr), usedAt: null, voidedAt: null },
    });
    expect(live).toHaveLength(1);
    expect(await recorded(machine.csr, bearer)).toMatchObject({ challenges: 11, tokenUseRows: 1, tokenUses: 1 });
  });
});

describe("G10: a CSR key outside F4's list → 400 naming csr", () => {
  const csrs: [string, string, RegExp][] = [
    ["an RSA-PSS key", "weak-csrs/rsa-pss.csr.pem", /key is RSA-PSS/],
    ["a key of an unknown algorithm OID (was a 500)", "weak-csrs/unknown-key-oid.csr.pem", /key cannot be read/],
  ];

  it.each(csrs)("at the join: %s, nothing recorded", async (_, file, message) => {
    const machine = await knownMachine(world.inventory.known, { csr: fixture(file) });
    const before = await recorded(machine.csr, world.tokens.a);
    expectField(await join(machine, world.tokens.a), "csr", message);
    expect(await recorded(machine.csr, world.tokens.a)).toEqual({ ...before, requests: 0, nodes: 0, tokenUseRows: 0 });
  });

  it.each(csrs)("at nodes/renew: %s, the certificate unchanged", async (_, file, message) => {
    const node = await admitNode(world);
    const db = await getDb();
    const before = await db.node.findUniqueOrThrow({ where: { id: node.nodeId } });
    const certificates = await db.nodeCertificate.count({ where: { nodeId: node.nodeId } });
    const response = await callAsNode("nodes/renew", { csr: fixture(file) }, node);
    expectError(response, 400, "INVALID_ARGUMENT");
    expect(response.body.error.details).toEqual([{ field: "csr", message: expect.stringMatching(message) }]);
    expect((await db.node.findUniqueOrThrow({ where: { id: node.nodeId } })).certSerial).toBe(before.certSerial);
    expect(await db.nodeCertificate.count({ where: { nodeId: node.nodeId } })).toBe(certificates);
  });

  it("nodes/renew: two CSR blocks → 400 naming csr", async () => {
    const node = await admitNode(world);
    const two = (await makeKeyAndCsr("a.test")).csrPem + (await makeKeyAndCsr("b.test")).csrPem;
    const response = await callAsNode("nodes/renew", { csr: two }, node);
    expectError(response, 400, "INVALID_ARGUMENT");
    expect(response.body.error.details).toEqual([{ field: "csr", message: expect.stringMatching(/holds 2 PEM blocks/) }]);
  });
});
