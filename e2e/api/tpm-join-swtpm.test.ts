import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { startSwtpm, type Swtpm, type SwtpmAk } from "@/test/harness/swtpm";
import { callMethod, expectError } from "@/test/api/api-client";
import { createServiceKey } from "@/test/api/world";
import { createJoinWorld, csrSha256, join, knownMachine, type JoinWorld, type Machine } from "@/test/api/machine";

// SPEC F1 with a real TPM 2.0 (swtpm + tpm2-tools): its EK allow-listed
// through tpmAllowList/add, the server's challenge activated by
// tpm2_activatecredential, the join admitted. Fails (never skips) without swtpm.
let world: JoinWorld;
let tpm: Swtpm;
let ek: string;
let ak: SwtpmAk;
let owner: string;

beforeAll(async () => {
  world = await createJoinWorld();
  tpm = await startSwtpm();
  ek = await tpm.createEk("rsa");
  ak = await tpm.createAk("rsa");
  owner = await createServiceKey(world.tenantId, [{ tenantId: world.tenantId, poolId: null, role: "tenant_admin" }]);
});

afterAll(async () => {
  await tpm?.stop();
});

/** The join body of a machine whose TPM is the swtpm. */
const body = (machine: Machine, activation?: { challengeId: string; secret: string }) => ({
  csr: machine.csr,
  hostname: machine.hostname,
  hardware: { systemUuid: machine.systemUuid, serialNumber: machine.serialNumber, macAddresses: machine.macAddresses },
  tpm: { ekPublicKey: ek, akPublic: ak.akPublic.toString("base64"), ...(activation ? { activation } : {}) },
});

/** Challenge → tpm2_activatecredential on the swtpm → the activated join. */
async function joinWithSwtpm(machine: Machine) {
  const challenge = await join(body(machine), world.tokens.tpm);
  expect(challenge.status, challenge.text).toBe(202);
  expect(challenge.body.status).toBe("challenge");
  const secret = await tpm.activate(
    Buffer.from(challenge.body.credentialBlob, "base64"),
    Buffer.from(challenge.body.encryptedSecret, "base64"),
    { ak },
  );
  return join(body(machine, { challengeId: challenge.body.challengeId, secret: secret.toString("base64") }), world.tokens.tpm);
}

describe("a real TPM's join (swtpm)", () => {
  it("not allow-listed: proven, then deferred tpm-ek-not-allowed", async () => {
    const response = await joinWithSwtpm(await knownMachine(world.inventory.known));
    expect(response.status, response.text).toBe(202);
    expect(response.body.reasons).toEqual(["tpm-ek-not-allowed"]);
  });

  it("allow-listed through tpmAllowList/add: challenge → tpm2_activatecredential → retry → admitted", async () => {
    const added = await callMethod("tpmAllowList/add", { tenantId: world.tenantId, ekPublicKey: ek, note: "swtpm" }, { bearer: owner });
    expect(added.status, added.text).toBe(200);
    const machine = await knownMachine(world.inventory.known);
    const response = await joinWithSwtpm(machine);
    expect(response.status, response.text).toBe(200);
    const node = await (await getDb()).node.findUniqueOrThrow({ where: { id: response.body.nodeId } });
    expect(node.tpmEkSha256).toBe(added.body.ekSha256);
  });

  it("a secret the TPM did not recover, or another CSR on the retry → 403, nothing recorded", async () => {
    const machine = await knownMachine(world.inventory.known);
    const challenge = await join(body(machine), world.tokens.tpm);
    const guessed = await join(
      body(machine, { challengeId: challenge.body.challengeId, secret: randomBytes(32).toString("base64") }),
      world.tokens.tpm,
    );
    expectError(guessed, 403, "PERMISSION_DENIED");
    const secret = await tpm.activate(
      Buffer.from(challenge.body.credentialBlob, "base64"),
      Buffer.from(challenge.body.encryptedSecret, "base64"),
      { ak },
    );
    const other = await knownMachine(world.inventory.known);
    const foreign = await join(
      body(other, { challengeId: challenge.body.challengeId, secret: secret.toString("base64") }),
      world.tokens.tpm,
    );
    expectError(foreign, 403, "PERMISSION_DENIED");
    const db = await getDb();
    for (const csr of [machine.csr, other.csr]) {
      expect(await db.joinRequest.count({ where: { csrSha256: csrSha256(csr) } })).toBe(0);
      expect(await db.node.count({ where: { csrSha256: csrSha256(csr) } })).toBe(0);
    }
  });
});
