import { generateKeyPairSync, randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { AK_ATTRIBUTES, encodeTpm2bPublic } from "@/lib/tpm/tpm2b-public";
import { TPMA_OBJECT } from "@/lib/tpm/tpm-constants";
import { callMethod, errorCode, expectError } from "@/test/api/api-client";
import {
  activatedBody,
  createJoinWorld,
  csrSha256,
  demoTpm,
  freshTpm,
  join,
  joinBody,
  joinThroughTpm,
  knownMachine,
  makeCsr,
  makeMachine,
  type JoinWorld,
  type Machine,
} from "@/test/api/machine";

// SPEC F1 over HTTP, with the software TPM of F5: a join into a TPM pool is
// answered with a credential-activation challenge; only the secret the TPM
// recovers proves the EK. (tpm-join-swtpm.test.ts does the same with a real TPM.)
let world: JoinWorld;

beforeAll(async () => {
  world = await createJoinWorld();
});

const db = () => getDb();
const recordedFor = async (csr: string) => {
  const sha = csrSha256(csr);
  return {
    requests: await (await db()).joinRequest.count({ where: { csrSha256: sha } }),
    nodes: await (await db()).node.count({ where: { csrSha256: sha } }),
  };
};
const tokenUses = async () =>
  (await (await db()).joinToken.findUniqueOrThrow({ where: { id: world.tokens.tpm.slice(5, world.tokens.tpm.indexOf(".")) } })).uses;

/** The machine's activated second step, with its body changed by `change`. */
async function secondStep(machine: Machine, change: (body: ReturnType<typeof activatedBody>) => void = () => {}) {
  const challenge = await join(machine, world.tokens.tpm);
  const body = activatedBody(machine, challenge.body);
  change(body);
  return { challenge, response: await join(body, world.tokens.tpm) };
}

describe("the challenge", () => {
  it("202 challenge: the MakeCredential output for the EK and the AK's Name, valid 5 minutes, recording only it and the token's use", async () => {
    const machine = await knownMachine(world.inventory.known, { tpm: demoTpm() });
    const usesBefore = await tokenUses();
    const before = Date.now();
    const response = await join(machine, world.tokens.tpm);
    expect(response.status).toBe(202);
    expect(Object.keys(response.body).sort()).toEqual(["challengeId", "credentialBlob", "encryptedSecret", "expiresAt", "status"]);
    expect(response.body.status).toBe("challenge");
    expect(response.body.challengeId).toMatch(/^tpmc_[0-9a-hjkmnp-tv-z]{26}$/);
    const blob = Buffer.from(response.body.credentialBlob, "base64");
    const secret = Buffer.from(response.body.encryptedSecret, "base64");
    expect(blob.readUInt16BE(0)).toBe(blob.length - 2); // TPM2B_ID_OBJECT with its size prefix
    expect(secret.readUInt16BE(0)).toBe(secret.length - 2); // TPM2B_ENCRYPTED_SECRET: RSA-2048 OAEP → 256 bytes
    expect(secret.length).toBe(258);
    const expiresIn = Date.parse(response.body.expiresAt) - before;
    expect(expiresIn).toBeGreaterThan(295_000);
    expect(expiresIn).toBeLessThanOrEqual(305_000);
    expect(machine.tpm!.activateCredential(blob, secret)).toHaveLength(32);
    expect(await recordedFor(machine.csr)).toEqual({ requests: 0, nodes: 0 });
    expect(await tokenUses()).toBe(usesBefore + 1); // SPEC G4: the challenge is the token's use for this CSR
    const stored = await (await db()).tpmChallenge.findUniqueOrThrow({ where: { id: response.body.challengeId } });
    expect(stored).toMatchObject({ csrSha256: csrSha256(machine.csr), akName: machine.tpm!.akName.toString("hex"), usedAt: null });
    expect(stored.secretHash).toHaveLength(32); // its SHA-256, never the secret
  });

  it("the activated join is decided; the challenge is used, once", async () => {
    const machine = await knownMachine(world.inventory.known, { tpm: demoTpm() });
    const { challenge, response } = await joinThroughTpm(machine, world.tokens.tpm);
    expect(response.status).toBe(200);
    expect((await (await db()).tpmChallenge.findUniqueOrThrow({ where: { id: challenge.body.challengeId } })).usedAt).not.toBeNull();
  });
});

describe("a wrong, expired, reused or foreign activation → 403 PERMISSION_DENIED, nothing recorded", () => {
  it("a wrong secret", async () => {
    const machine = await knownMachine(world.inventory.known, { tpm: demoTpm() });
    const { challenge, response } = await secondStep(machine, (body) => (body.tpm.activation.secret = randomBytes(32).toString("base64")));
    expectError(response, 403, "PERMISSION_DENIED");
    expect(await recordedFor(machine.csr)).toEqual({ requests: 0, nodes: 0 });
    expect((await (await db()).tpmChallenge.findUniqueOrThrow({ where: { id: challenge.body.challengeId } })).usedAt).toBeNull();
  });

  it("the secret another TPM recovered for its own challenge", async () => {
    const machine = await knownMachine(world.inventory.known, { tpm: demoTpm() });
    const other = await knownMachine(world.inventory.known, { tpm: freshTpm() });
    const otherSecret = activatedBody(other, (await join(other, world.tokens.tpm)).body).tpm.activation.secret;
    const { response } = await secondStep(machine, (body) => (body.tpm.activation.secret = otherSecret));
    expectError(response, 403, "PERMISSION_DENIED");
    expect(await recordedFor(machine.csr)).toEqual({ requests: 0, nodes: 0 });
  });

  it("an expired challenge", async () => {
    const machine = await knownMachine(world.inventory.known, { tpm: demoTpm() });
    const challenge = await join(machine, world.tokens.tpm);
    await (await db()).tpmChallenge.update({ where: { id: challenge.body.challengeId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectError(await join(activatedBody(machine, challenge.body), world.tokens.tpm), 403, "PERMISSION_DENIED");
    expect(await recordedFor(machine.csr)).toEqual({ requests: 0, nodes: 0 });
  });

  it("a reused challenge (its request expired, the machine starts over with the old activation)", async () => {
    const machine = await makeMachine({ tpm: demoTpm() }); // unknown to discovery: deferred
    const { challenge, response } = await joinThroughTpm(machine, world.tokens.tpm);
    expect(response.body.reasons).toEqual(["unknown-to-discovery"]);
    await (await db()).joinRequest.update({ where: { id: response.body.requestId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectError(await join(activatedBody(machine, challenge.body), world.tokens.tpm), 403, "PERMISSION_DENIED");
    expect(await recordedFor(machine.csr)).toEqual({ requests: 1, nodes: 0 });
  });

  it("another CSR than the one the challenge was made for", async () => {
    const machine = await knownMachine(world.inventory.known, { tpm: demoTpm() });
    const otherCsr = await makeCsr(machine.hostname);
    const { response } = await secondStep(machine, (body) => (body.csr = otherCsr));
    expectError(response, 403, "PERMISSION_DENIED");
    expect(await recordedFor(otherCsr)).toEqual({ requests: 0, nodes: 0 });
    expect(await recordedFor(machine.csr)).toEqual({ requests: 0, nodes: 0 });
  });

  it("every refusal is the same answer", async () => {
    const machine = await knownMachine(world.inventory.known, { tpm: demoTpm() });
    const wrong = (await secondStep(machine, (body) => (body.tpm.activation.secret = randomBytes(32).toString("base64")))).response;
    const unknown = (await secondStep(machine, (body) => (body.tpm.activation.challengeId = "tpmc_01jzzzzzzzzzzzzzzzzzzzzzzz"))).response;
    expect(unknown.body).toEqual(wrong.body);
  });
});

describe("the attestation key", () => {
  const akWith = (objectAttributes: number) =>
    encodeTpm2bPublic({ publicKey: generateKeyPairSync("ec", { namedCurve: "prime256v1" }).publicKey, objectAttributes }).toString(
      "base64",
    );

  for (const [missing, bit] of [
    ["fixedTPM", TPMA_OBJECT.fixedTPM],
    ["restricted", TPMA_OBJECT.restricted],
    ["sign", TPMA_OBJECT.sign],
  ] as const) {
    it(`an AK without ${missing} → 400 naming tpm.akPublic, nothing recorded`, async () => {
      const machine = await knownMachine(world.inventory.known, { tpm: demoTpm() });
      const body = joinBody(machine) as { tpm: { akPublic: string } };
      body.tpm.akPublic = akWith(AK_ATTRIBUTES & ~bit);
      const response = await join(body, world.tokens.tpm);
      expectError(response, 400, "INVALID_ARGUMENT");
      expect(response.body.error.details).toEqual([{ field: "tpm.akPublic", message: expect.stringContaining(missing) }]);
      expect(await (await db()).tpmChallenge.count({ where: { csrSha256: csrSha256(machine.csr) } })).toBe(0);
    });
  }

  it("an akPublic that is no TPM2B_PUBLIC, or not base64 → 400 naming tpm.akPublic", async () => {
    const machine = await knownMachine(world.inventory.known, { tpm: demoTpm() });
    for (const akPublic of [Buffer.from("not a tpm structure").toString("base64"), "%%%"]) {
      const body = joinBody(machine) as { tpm: { akPublic: string } };
      body.tpm.akPublic = akPublic;
      const response = await join(body, world.tokens.tpm);
      expectError(response, 400, "INVALID_ARGUMENT");
      expect(response.body.error.details[0].field).toBe("tpm.akPublic");
    }
  });

  it("an activation without akPublic → 400 naming tpm.akPublic", async () => {
    const machine = await knownMachine(world.inventory.known, { tpm: demoTpm() });
    const body = activatedBody(machine, (await join(machine, world.tokens.tpm)).body) as { tpm: Record<string, unknown> };
    delete body.tpm.akPublic;
    const response = await join(body, world.tokens.tpm);
    expectError(response, 400, "INVALID_ARGUMENT");
    expect(errorCode(response)).toBe("INVALID_ARGUMENT");
    expect(response.body.error.details[0].field).toBe("tpm.akPublic");
  });
});

describe("what a proven EK leads to", () => {
  it("a retry of the deferred request needs no second proof: approved, it is consumed with the same CSR", async () => {
    const machine = await makeMachine({ tpm: freshTpm() });
    const { response } = await joinThroughTpm(machine, world.tokens.tpm);
    expect(response.body.reasons).toEqual(["unknown-to-discovery", "tpm-ek-not-allowed"]);
    const approve = await callMethod(
      "joinRequests/approve",
      { tenantId: world.tenantId, poolId: world.tpmPoolId, requestId: response.body.requestId },
      { bearer: world.keys.admin },
    );
    expect(approve.status).toBe(200);
    expect((await join(machine, world.tokens.tpm)).status).toBe(200);
  });
});
