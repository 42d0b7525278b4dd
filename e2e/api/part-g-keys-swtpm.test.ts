import { createPublicKey } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { startSwtpm, type Swtpm, type SwtpmAk } from "@/test/harness/swtpm";
import { expectError } from "@/test/api/api-client";
import { ALLOWED_EK_PEM, createJoinWorld, csrSha256, join, knownMachine, type JoinWorld, type Machine } from "@/test/api/machine";

// SPEC G1 with a real TPM 2.0 (swtpm + tpm2-tools): a body that shows the
// allow-listed EK to the hash and the swtpm's own EK to MakeCredential was
// admitted (the swtpm answers the challenge it could decrypt). Now the EK is
// one PUBLIC KEY block or the join is 400 before any challenge. Fails (never
// skips) without swtpm.
let world: JoinWorld;
let tpm: Swtpm;
let ek: string;
let ak: SwtpmAk;

beforeAll(async () => {
  world = await createJoinWorld();
  tpm = await startSwtpm();
  ek = await tpm.createEk("rsa");
  ak = await tpm.createAk("rsa");
});

afterAll(async () => {
  await tpm?.stop();
});

const pemOf = (der: Buffer, label: string) =>
  `-----BEGIN ${label}-----\n${der.toString("base64").replace(/(.{64})/g, "$1\n")}\n-----END ${label}-----\n`;
const spki = (pem: string) => createPublicKey(pem).export({ type: "spki", format: "der" });

const body = (machine: Machine, ekPublicKey: string, activation?: { challengeId: string; secret: string }) => ({
  csr: machine.csr,
  hostname: machine.hostname,
  hardware: { systemUuid: machine.systemUuid, serialNumber: machine.serialNumber, macAddresses: machine.macAddresses },
  tpm: { ekPublicKey, akPublic: ak.akPublic.toString("base64"), ...(activation ? { activation } : {}) },
});

/** The join as the attacker makes it: if challenged, the swtpm answers and the join is repeated; the last answer. */
async function joinAnsweringWithSwtpm(machine: Machine, ekPublicKey: string) {
  const first = await join(body(machine, ekPublicKey), world.tokens.tpm);
  if (first.body?.status !== "challenge") return first;
  const secret = await tpm.activate(Buffer.from(first.body.credentialBlob, "base64"), Buffer.from(first.body.encryptedSecret, "base64"), {
    ak,
  });
  return join(body(machine, ekPublicKey, { challengeId: first.body.challengeId, secret: secret.toString("base64") }), world.tokens.tpm);
}

describe("G1 against a real TPM: one reading of tpm.ekPublicKey", () => {
  const cases: [string, () => string][] = [
    [
      "the allow-listed EK as X509 PUBLIC KEY, then the swtpm's EK as PUBLIC KEY",
      () => pemOf(spki(ALLOWED_EK_PEM), "X509 PUBLIC KEY") + ek,
    ],
    ["the swtpm's EK under another label", () => pemOf(spki(ek), "X509 PUBLIC KEY")],
    ["the swtpm's EK with trailing bytes after the block", () => `${ek}\nMIIB`],
    ["the swtpm's EK with trailing bytes in its DER", () => pemOf(Buffer.concat([spki(ek), Buffer.from([5, 0])]), "PUBLIC KEY")],
  ];
  it.each(cases)("%s → 400 naming tpm.ekPublicKey, no challenge, nothing recorded", async (_, ekPublicKey) => {
    const machine = await knownMachine(world.inventory.known);
    const response = await joinAnsweringWithSwtpm(machine, ekPublicKey());
    expectError(response, 400, "INVALID_ARGUMENT");
    expect(response.body.error.details).toEqual([{ field: "tpm.ekPublicKey", message: expect.any(String) }]);
    const db = await getDb();
    const sha = csrSha256(machine.csr);
    expect(await db.tpmChallenge.count({ where: { csrSha256: sha } })).toBe(0);
    expect(await db.joinRequest.count({ where: { csrSha256: sha } })).toBe(0);
    expect(await db.node.count({ where: { csrSha256: sha } })).toBe(0);
    expect(await db.joinTokenUse.count({ where: { csrSha256: sha } })).toBe(0);
  });

  it("the swtpm's EK alone, as one PUBLIC KEY block, is still challenged and proven (deferred: not allow-listed)", async () => {
    const response = await joinAnsweringWithSwtpm(await knownMachine(world.inventory.known), ek);
    expect(response.status, response.text).toBe(202);
    expect(response.body.reasons).toEqual(["tpm-ek-not-allowed"]);
  });
});
