import { createHash, randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { makeKeyAndCsr } from "@/server/pki/make-csr";
import { startSwtpm, type Swtpm, type SwtpmAk } from "@/test/harness/swtpm";
import { tpm2Quote } from "@/docs/examples/node-attest";
import { callMethod, expectError } from "@/test/api/api-client";
import { addPool, createServiceKey } from "@/test/api/world";
import { createJoinTokenRow, createJoinWorld, csrSha256, join, knownMachine, type JoinWorld, type Machine } from "@/test/api/machine";

// SPEC I2 with a real TPM 2.0 (swtpm + tpm2-tools): the join's quote made by
// tpm2_quote over the challenge's nonce. A PCR extended past the pool's known
// state defers boot-state-unknown with the values; a quote over another
// nonce, by another AK, with an altered value or a broken signature is 403
// with nothing recorded; "Trust this boot state" (pools/update + approve)
// admits the machine's retry. The golden boot's admission is in
// node-attest-swtpm.test.ts. Fails (never skips) without swtpm.
let world: JoinWorld;
let tpm: Swtpm;
let ek: string;
let ak: SwtpmAk;
let owner: string;
let poolId: string;
let token: string;

const ZERO = "00".repeat(32);
const extend = (from: string, by: string) =>
  createHash("sha256").update(Buffer.from(from, "hex")).update(Buffer.from(by, "hex")).digest("hex");
const GOLDEN_MEASUREMENT = "5b".repeat(32);
const PATCHED_MEASUREMENT = "c3".repeat(32);
const GOLDEN_7 = extend(ZERO, GOLDEN_MEASUREMENT);
const GOLDEN = { name: "swtpm-golden", pcrs: { "0": ZERO, "7": GOLDEN_7 } };

beforeAll(async () => {
  world = await createJoinWorld();
  tpm = await startSwtpm();
  ek = await tpm.createEk("rsa");
  ak = await tpm.createAk("rsa");
  owner = await createServiceKey(world.tenantId, [{ tenantId: world.tenantId, poolId: null, role: "tenant_admin" }]);
  const added = await callMethod("tpmAllowList/add", { tenantId: world.tenantId, ekPublicKey: ek, note: "swtpm" }, { bearer: owner });
  expect(added.status, added.text).toBe(200);
  poolId = await addPool(world);
  await (await getDb()).pool.update({ where: { id: poolId }, data: { requiresTpm: true } });
  const states = await callMethod(
    "pools/update",
    { tenantId: world.tenantId, poolId, bootStates: [GOLDEN], requireKnownBoot: true },
    { bearer: owner },
  );
  expect(states.status, states.text).toBe(200);
  token = await createJoinTokenRow(world.tenantId, poolId);
  await tpm.tool("tpm2_pcrextend", [`7:sha256=${GOLDEN_MEASUREMENT}`]);
});

afterAll(async () => {
  await tpm?.stop();
});

const quoteBy = (signer: SwtpmAk) =>
  tpm2Quote(signer.handle, { run: (command, args) => tpm.tool(command, args), read: (file) => readFile(tpm.path(file)) });

type Quote = { attest: string; signature: string; pcrs: Record<string, string> };

/** One join as a daemon with this swtpm makes it: challenge, tpm2_activatecredential, tpm2_quote; `change` alters the quote first. */
async function quotedJoin(machine: Machine, change: (quote: Quote, nonce: Buffer) => Promise<Quote> | Quote = (quote) => quote) {
  const body = (extra?: object) => ({
    csr: machine.csr,
    hostname: machine.hostname,
    hardware: { systemUuid: machine.systemUuid, serialNumber: machine.serialNumber, macAddresses: machine.macAddresses },
    tpm: { ekPublicKey: ek, akPublic: ak.akPublic.toString("base64"), ...extra },
  });
  const challenge = await join(body(), token);
  expect(challenge.body.status, challenge.text).toBe("challenge");
  expect(challenge.body.pcrSelection).toEqual([0, 7]);
  const nonce = Buffer.from(challenge.body.nonce, "base64");
  const secret = await tpm.activate(
    Buffer.from(challenge.body.credentialBlob, "base64"),
    Buffer.from(challenge.body.encryptedSecret, "base64"),
    { ak },
  );
  const quote = await change(await quoteBy(ak)(nonce, challenge.body.pcrSelection), nonce);
  const retryBody = body({ activation: { challengeId: challenge.body.challengeId, secret: secret.toString("base64") }, quote });
  return { retryBody, response: await join(retryBody, token) };
}

async function newMachine(): Promise<Machine> {
  const hostname = `swtpm-boot-${randomBytes(4).toString("hex")}.node.test`;
  const keys = await makeKeyAndCsr(hostname);
  return knownMachine(world.inventory.known, { hostname, csr: keys.csrPem });
}

async function recordedFor(csr: string) {
  const db = await getDb();
  const sha = csrSha256(csr);
  return {
    requests: await db.joinRequest.count({ where: { csrSha256: sha } }),
    nodes: await db.node.count({ where: { csrSha256: sha } }),
  };
}

describe("measured boot at the join, with a real TPM (swtpm)", () => {
  it.each<[string, (quote: Quote, nonce: Buffer) => Promise<Quote> | Quote, string]>([
    ["a quote over another nonce", () => quoteBy(ak)(randomBytes(32), [0, 7]), "wrong-nonce"],
    [
      "a quote by another AK of the same TPM",
      async (_, nonce) => quoteBy(await tpm.createAk("rsa", "ecc"))(nonce, [0, 7]),
      "bad-signature",
    ],
    ["an altered PCR value", (quote) => ({ ...quote, pcrs: { ...quote.pcrs, "7": ZERO } }), "pcr-digest-mismatch"],
    [
      "a broken signature",
      (quote) => {
        const signature = Buffer.from(quote.signature, "base64");
        signature[signature.length - 1]! ^= 0x01;
        return { ...quote, signature: signature.toString("base64") };
      },
      "bad-signature",
    ],
  ])("%s is 403 naming why, and records nothing", async (_, change, reason) => {
    const machine = await newMachine();
    const { response } = await quotedJoin(machine, change);
    expectError(response, 403, "PERMISSION_DENIED");
    expect(response.body.error.message).toContain(reason);
    expect(await recordedFor(machine.csr)).toEqual({ requests: 0, nodes: 0 });
  });

  it("a PCR extended past the known state defers boot-state-unknown with tpm2_quote's values; Trust this boot state admits the retry", async () => {
    await tpm.tool("tpm2_pcrextend", [`7:sha256=${PATCHED_MEASUREMENT}`]);
    const patched7 = extend(GOLDEN_7, PATCHED_MEASUREMENT);
    const machine = await newMachine();
    const { retryBody, response } = await quotedJoin(machine);
    expect(response.status, response.text).toBe(202);
    expect(response.body.reasons).toEqual(["boot-state-unknown"]);
    const requestId = response.body.requestId as string;
    const listing = await callMethod(
      "joinRequests/list",
      { tenantId: world.tenantId, poolId, state: "pending", limit: 200 },
      { bearer: owner },
    );
    const listed = {
      body: (listing.body.joinRequests as { id: string; bootMeasurement: { pcrs: Record<string, string> } }[]).find(
        (each) => each.id === requestId,
      )!,
    };
    expect(listed.body.bootMeasurement).toEqual({ pcrs: { "0": ZERO, "7": patched7 }, bootState: null });

    const trusted = await callMethod(
      "pools/update",
      { tenantId: world.tenantId, poolId, bootStates: [GOLDEN, { name: "swtpm-patched", pcrs: listed.body.bootMeasurement.pcrs }] },
      { bearer: owner },
    );
    expect(trusted.status, trusted.text).toBe(200);
    const approved = await callMethod("joinRequests/approve", { tenantId: world.tenantId, poolId, requestId }, { bearer: owner });
    expect(approved.body.state, approved.text).toBe("approved");
    const retry = await join(retryBody, token);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body.status).toBe("admitted");
    expect(await recordedFor(machine.csr)).toEqual({ requests: 1, nodes: 1 });
  });
});
