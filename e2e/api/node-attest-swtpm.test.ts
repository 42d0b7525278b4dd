import { createHash, randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getDb } from "@/server/db/client";
import { makeKeyAndCsr } from "@/server/pki/make-csr";
import { startSwtpm, type Swtpm, type SwtpmAk } from "@/test/harness/swtpm";
import { attestEvery, attestOnce, tpm2Quote, type Attestation } from "@/docs/examples/node-attest";
import { callMethod, expectError } from "@/test/api/api-client";
import { createServiceKey } from "@/test/api/world";
import { createJoinWorld, join, knownMachine, type JoinWorld, type Machine } from "@/test/api/machine";
import { callAsNode, type TestNode } from "@/test/api/node";

// SPEC I3 with a real TPM 2.0 (swtpm + tpm2-tools): a node admitted through
// the TPM join attests with tpm2_quote; tpm2_pcrextend turns it untrusted,
// with one event; another AK's quote, an altered value and a replay are 403
// with nothing recorded. The quotes are made by the daemon example
// (docs/examples/node-attest.ts). Fails (never skips) without swtpm.
let world: JoinWorld;
let tpm: Swtpm;
let ek: string;
let ak: SwtpmAk;
let node: TestNode;

const ZERO = "00".repeat(32);
const MEASURED = "5b".repeat(32);
const GOLDEN_7 = createHash("sha256").update(Buffer.alloc(32)).update(Buffer.from(MEASURED, "hex")).digest("hex");

beforeAll(async () => {
  world = await createJoinWorld();
  tpm = await startSwtpm();
  ek = await tpm.createEk("rsa");
  ak = await tpm.createAk("rsa");
  const owner = await createServiceKey(world.tenantId, [{ tenantId: world.tenantId, poolId: null, role: "tenant_admin" }]);
  const added = await callMethod("tpmAllowList/add", { tenantId: world.tenantId, ekPublicKey: ek, note: "swtpm" }, { bearer: owner });
  expect(added.status, added.text).toBe(200);
  await tpm.tool("tpm2_pcrextend", [`7:sha256=${MEASURED}`]); // the golden boot's bootloader
  await (
    await getDb()
  ).pool.update({
    where: { id: world.tpmPoolId },
    data: { bootStates: [{ name: "swtpm-golden", pcrs: { "0": ZERO, "7": GOLDEN_7 } }], requireKnownBoot: true },
  });
  node = await joinWithSwtpm();
});

afterAll(async () => {
  await tpm?.stop();
});

/** The TPM join with the swtpm: challenge → tpm2_activatecredential and tpm2_quote of its golden boot → admitted. */
async function joinWithSwtpm(): Promise<TestNode> {
  const hostname = `swtpm-${randomBytes(4).toString("hex")}.node.test`;
  const keys = await makeKeyAndCsr(hostname);
  const machine = await knownMachine(world.inventory.known, { hostname, csr: keys.csrPem });
  const body = (activation?: object, quote?: object) => ({
    csr: machine.csr,
    hostname: machine.hostname,
    hardware: { systemUuid: machine.systemUuid, serialNumber: machine.serialNumber, macAddresses: machine.macAddresses },
    tpm: { ekPublicKey: ek, akPublic: ak.akPublic.toString("base64"), ...(activation ? { activation, quote } : {}) },
  });
  const challenge = await join(body(), world.tokens.tpm);
  expect(challenge.body.status, challenge.text).toBe("challenge");
  const secret = await tpm.activate(
    Buffer.from(challenge.body.credentialBlob, "base64"),
    Buffer.from(challenge.body.encryptedSecret, "base64"),
    { ak },
  );
  // SPEC I2: the pool holds boot states, so the challenge asked for a quote: tpm2_quote over its nonce
  expect(challenge.body.pcrSelection).toEqual([0, 7]);
  const quote = await quoteBy(ak)(Buffer.from(challenge.body.nonce, "base64"), challenge.body.pcrSelection);
  const activation = { challengeId: challenge.body.challengeId, secret: secret.toString("base64") };
  const admitted = await join(body(activation, quote), world.tokens.tpm);
  expect(admitted.status, admitted.text).toBe(200);
  return {
    nodeId: admitted.body.nodeId,
    privateKeyPem: keys.privateKeyPem,
    certificatePem: admitted.body.certificate,
    machine: machine as Machine,
  };
}

/** The daemon example's tpm2_quote, run on the swtpm. */
const quoteBy = (signer: SwtpmAk) =>
  tpm2Quote(signer.handle, { run: (command, args) => tpm.tool(command, args), read: (file) => readFile(tpm.path(file)) });

async function quoteFor(signer: SwtpmAk = ak) {
  const asked = await callAsNode("nodes/attest", {}, node);
  expect(asked.status, asked.text).toBe(200);
  return quoteBy(signer)(Buffer.from(asked.body.nonce, "base64"), asked.body.pcrSelection);
}

async function failedEvents() {
  const events = await callMethod(
    "events/list",
    { tenantId: world.tenantId, poolId: world.tpmPoolId, types: ["compute.node.attestation-failed"], limit: 200 },
    { bearer: world.keys.admin },
  );
  return events.body.events.filter((event: { data: { nodeId: string } }) => event.data.nodeId === node.nodeId);
}

async function recorded() {
  const db = await getDb();
  const row = await db.node.findUniqueOrThrow({
    where: { id: node.nodeId },
    select: { attestationState: true, attestedAt: true, attestationPcrs: true, tpmAkPublic: true },
  });
  return { row, events: await failedEvents() };
}

describe("a real TPM's node attests (swtpm)", () => {
  it("its join recorded the AK it proved", async () => {
    expect(Buffer.from((await recorded()).row.tpmAkPublic!)).toEqual(ak.akPublic);
  });

  it("another AK of the same TPM, an altered value, a replay: 403, nothing recorded", async () => {
    const before = await recorded();
    const other = await tpm.createAk("rsa", "ecc");
    expectError(await callAsNode("nodes/attest", { quote: await quoteFor(other) }, node), 403, "PERMISSION_DENIED");
    const quote = await quoteFor();
    const altered = { ...quote, pcrs: { ...quote.pcrs, "7": ZERO } };
    expectError(await callAsNode("nodes/attest", { quote: altered }, node), 403, "PERMISSION_DENIED");
    const signature = Buffer.from(quote.signature, "base64");
    signature[signature.length - 1]! ^= 0x01;
    expectError(
      await callAsNode("nodes/attest", { quote: { ...quote, signature: signature.toString("base64") } }, node),
      403,
      "PERMISSION_DENIED",
    );
    expect(await recorded()).toEqual(before);
    expect((await callAsNode("nodes/attest", { quote }, node)).body.state).toBe("trusted");
    const after = await recorded();
    expectError(await callAsNode("nodes/attest", { quote }, node), 403, "PERMISSION_DENIED");
    expect(await recorded()).toEqual(after);
  });

  it("the daemon example attests once, and on a schedule", async () => {
    expect(await attestOnce(inject("baseUrl"), node, quoteBy(ak))).toMatchObject({ state: "trusted", bootState: "swtpm-golden" });
    const outcomes: (Attestation | Error)[] = [];
    const stop = attestEvery(inject("baseUrl"), node, quoteBy(ak), 200, (outcome) => outcomes.push(outcome));
    try {
      await expect.poll(() => outcomes.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    } finally {
      stop();
    }
    expect(outcomes.slice(0, 2)).toEqual([expect.objectContaining({ state: "trusted" }), expect.objectContaining({ state: "trusted" })]);
  });

  it("trusted → tpm2_pcrextend → untrusted with the value that did not match, one event for two failures", async () => {
    const trusted = await callAsNode("nodes/attest", { quote: await quoteFor() }, node);
    expect(trusted.body).toMatchObject({ state: "trusted", bootState: "swtpm-golden", pcrs: { "0": ZERO, "7": GOLDEN_7 } });

    await tpm.tool("tpm2_pcrextend", [`7:sha256=${"cd".repeat(32)}`]);
    const untrusted = await callAsNode("nodes/attest", { quote: await quoteFor() }, node);
    expect(untrusted.body).toMatchObject({ state: "untrusted", bootState: null, unmatchedPcrs: [7] });
    expect((await callAsNode("nodes/attest", { quote: await quoteFor() }, node)).body.state).toBe("untrusted");

    const events = await failedEvents();
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ previousState: "trusted", unmatchedPcrs: { "7": untrusted.body.pcrs["7"] } });
    const got = await callMethod("nodes/get", { tenantId: world.tenantId, nodeId: node.nodeId }, { bearer: world.keys.viewer });
    expect(got.body.attestation).toMatchObject({ state: "untrusted", unmatchedPcrs: [7] });
  });
});
