import { createHash, randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { signNodeToken } from "@/lib/node-credential/sign-node-token";
import { quoteOnWire, type SoftwareTpm } from "@/lib/tpm/software-tpm";
import { callMethod, expectError } from "@/test/api/api-client";
import { createJoinWorld, demoTpm, join, joinBody, joinThroughTpm, makeMachine, type JoinWorld } from "@/test/api/machine";
import { makeKeyAndCsr } from "@/server/pki/make-csr";
import { admitNode, admitTpmNode, callAsNode, type TestNode } from "@/test/api/node";
import { sample, scrape } from "@/test/api/metrics-scrape";

// SPEC I3 over HTTP with the software TPM (F5): nodes/attest's two steps,
// trusted → a PCR extended → untrusted with exactly one event, stale past the
// maximum age, and every bad quote refused with nothing recorded.
let world: JoinWorld;

const ZERO = "00".repeat(32);
const BOOTLOADER = Buffer.alloc(32, 0x5b);
/** PCR 7 after one extension by BOOTLOADER from zero, as a TPM computes it. */
const GOLDEN_7 = createHash("sha256").update(Buffer.alloc(32)).update(BOOTLOADER).digest("hex");
const BOOT_STATES = [{ name: "golden-2026-12", pcrs: { "0": ZERO, "7": GOLDEN_7 } }];
const DAY_MS = 86_400_000;

beforeAll(async () => {
  world = await createJoinWorld();
  await (await getDb()).pool.update({ where: { id: world.tpmPoolId }, data: { bootStates: BOOT_STATES, requireKnownBoot: true } });
});

interface Attesting {
  node: TestNode;
  tpm: SoftwareTpm;
}

/** A node of the TPM pool whose software TPM booted the golden state. */
async function goldenNode(): Promise<Attesting> {
  const tpm = demoTpm();
  tpm.extendPcr(7, BOOTLOADER);
  return { node: await admitTpmNode(world, tpm), tpm };
}

const challengeFor = async (node: TestNode) => {
  const answer = await callAsNode("nodes/attest", {}, node);
  expect(answer.status, answer.text).toBe(200);
  return answer.body as { nonce: string; pcrSelection: number[]; expiresAt: string };
};

/** Both steps, as the daemon does them. */
async function attest({ node, tpm }: Attesting) {
  const { nonce, pcrSelection } = await challengeFor(node);
  return callAsNode("nodes/attest", { quote: quoteOnWire(tpm.quote({ nonce: Buffer.from(nonce, "base64"), pcrSelection })) }, node);
}

const getNode = (node: TestNode) =>
  callMethod("nodes/get", { tenantId: world.tenantId, nodeId: node.nodeId }, { bearer: world.keys.viewer });

async function failedEvents(node: TestNode) {
  const events = await callMethod(
    "events/list",
    { tenantId: world.tenantId, poolId: world.tpmPoolId, types: ["compute.node.attestation-failed"], limit: 200 },
    { bearer: world.keys.admin },
  );
  expect(events.status, events.text).toBe(200);
  return events.body.events.filter((event: { data: { nodeId: string } }) => event.data.nodeId === node.nodeId);
}

/** What a refused quote must leave as it was: the node's attestation columns, its events and its challenges. */
async function recorded(node: TestNode) {
  const db = await getDb();
  const row = await db.node.findUniqueOrThrow({
    where: { id: node.nodeId },
    select: { attestationState: true, attestedAt: true, attestationBootState: true, attestationPcrs: true },
  });
  const challenges = await db.nodeAttestationChallenge.findMany({ where: { nodeId: node.nodeId }, select: { id: true, usedAt: true } });
  return { row, challenges, events: await failedEvents(node) };
}

describe("nodes/attest: the two steps", () => {
  it("without a quote: a 32-byte nonce, the PCRs the pool's states name, valid 5 minutes", async () => {
    const { node } = await goldenNode();
    const before = Date.now();
    const challenge = await challengeFor(node);
    expect(Buffer.from(challenge.nonce, "base64")).toHaveLength(32);
    expect(challenge.pcrSelection).toEqual([0, 7]);
    const ttl = Date.parse(challenge.expiresAt) - before;
    expect(ttl).toBeGreaterThan(290_000);
    expect(ttl).toBeLessThanOrEqual(301_000);
    expect((await challengeFor(node)).nonce).not.toBe(challenge.nonce);
  });

  it("a golden boot is trusted with its state's name, on nodes/get and nodes/list; a never-attested node of the pool reads stale", async () => {
    const golden = await goldenNode();
    const fresh = await goldenNode();
    const answer = await attest(golden);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({
      state: "trusted",
      at: expect.any(String),
      bootState: "golden-2026-12",
      pcrs: { "0": ZERO, "7": GOLDEN_7 },
      unmatchedPcrs: [],
    });
    expect((await getNode(golden.node)).body.attestation).toEqual(answer.body);
    expect((await getNode(fresh.node)).body.attestation).toEqual({
      state: "stale",
      at: null,
      bootState: null,
      pcrs: null,
      unmatchedPcrs: [],
    });

    const listed = async (attestation: string) =>
      (
        await callMethod(
          "nodes/list",
          { tenantId: world.tenantId, poolId: world.tpmPoolId, attestation, limit: 200 },
          { bearer: world.keys.viewer },
        )
      ).body.nodes.map((n: { id: string }) => n.id);
    expect(await listed("trusted")).toContain(golden.node.nodeId);
    expect(await listed("trusted")).not.toContain(fresh.node.nodeId);
    expect(await listed("stale")).toContain(fresh.node.nodeId);
    expect(await listed("stale")).not.toContain(golden.node.nodeId);
    expect(await listed("untrusted")).not.toContain(golden.node.nodeId);
    const bad = await callMethod(
      "nodes/list",
      { tenantId: world.tenantId, poolId: world.tpmPoolId, attestation: "good" },
      { bearer: world.keys.viewer },
    );
    expectError(bad, 400, "INVALID_ARGUMENT");
    expect(bad.body.error.details).toEqual([expect.objectContaining({ field: "attestation" })]);
  });

  it("trusted → a PCR extended → untrusted with the value that did not match, and exactly one event however often it fails", async () => {
    const golden = await goldenNode();
    expect((await attest(golden)).body.state).toBe("trusted");
    expect(await failedEvents(golden.node)).toEqual([]);

    golden.tpm.extendPcr(7, randomBytes(32)); // a tampered bootloader measured on top
    const failed = await attest(golden);
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body).toMatchObject({ state: "untrusted", bootState: null, unmatchedPcrs: [7] });
    const tampered = failed.body.pcrs["7"];
    expect(tampered).not.toBe(GOLDEN_7);

    for (let again = 0; again < 2; again++) expect((await attest(golden)).body.state).toBe("untrusted");
    const events = await failedEvents(golden.node);
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({
      nodeId: golden.node.nodeId,
      previousState: "trusted",
      unmatchedPcrs: { "7": tampered },
      pcrs: { "0": ZERO, "7": tampered },
    });
    expect((await getNode(golden.node)).body.attestation).toMatchObject({ state: "untrusted", unmatchedPcrs: [7] });
  });

  it("reads stale once the last attestation is older than the maximum age (a day by default), and fresh again after the next", async () => {
    const golden = await goldenNode();
    expect((await attest(golden)).body.state).toBe("trusted");
    const db = await getDb();
    // time moved by the database, not slept: the last quote a day and a second ago
    await db.node.update({ where: { id: golden.node.nodeId }, data: { attestedAt: new Date(Date.now() - DAY_MS - 1000) } });
    expect((await getNode(golden.node)).body.attestation).toMatchObject({ state: "stale", bootState: "golden-2026-12" });
    const stale = await callMethod(
      "nodes/list",
      { tenantId: world.tenantId, poolId: world.tpmPoolId, attestation: "stale", limit: 200 },
      { bearer: world.keys.viewer },
    );
    expect(stale.body.nodes.map((n: { id: string }) => n.id)).toContain(golden.node.nodeId);
    // just inside the age it is still trusted
    await db.node.update({ where: { id: golden.node.nodeId }, data: { attestedAt: new Date(Date.now() - DAY_MS + 60_000) } });
    expect((await getNode(golden.node)).body.attestation.state).toBe("trusted");
    // a pool that does not require a known boot never reads stale
    await db.node.update({ where: { id: golden.node.nodeId }, data: { attestedAt: new Date(Date.now() - 30 * DAY_MS) } });
    await db.pool.update({ where: { id: world.tpmPoolId }, data: { requireKnownBoot: false } });
    try {
      expect((await getNode(golden.node)).body.attestation.state).toBe("trusted");
    } finally {
      await db.pool.update({ where: { id: world.tpmPoolId }, data: { requireKnownBoot: true } });
    }
    expect((await attest(golden)).body.state).toBe("trusted");
    expect((await getNode(golden.node)).body.attestation.state).toBe("trusted");
  });
});

describe("nodes/attest: a bad quote is 403 and records nothing", () => {
  /** A quote made wrong by `spoil`: 403 PERMISSION_DENIED naming the reason; then the same nonce, quoted right, is still good. */
  async function refusedThenAccepted(
    spoil: (
      quote: ReturnType<typeof quoteOnWire>,
      made: { nonce: Buffer; pcrSelection: number[] },
      tpm: SoftwareTpm,
    ) => ReturnType<typeof quoteOnWire>,
    reason: string,
  ) {
    const golden = await goldenNode();
    const { nonce, pcrSelection } = await challengeFor(golden.node);
    const made = { nonce: Buffer.from(nonce, "base64"), pcrSelection };
    const before = await recorded(golden.node);
    const refused = await callAsNode("nodes/attest", { quote: spoil(quoteOnWire(golden.tpm.quote(made)), made, golden.tpm) }, golden.node);
    expectError(refused, 403, "PERMISSION_DENIED");
    expect(refused.body.error.message).toContain(reason);
    expect(await recorded(golden.node)).toEqual(before);
    const accepted = await callAsNode("nodes/attest", { quote: quoteOnWire(golden.tpm.quote(made)) }, golden.node);
    expect(accepted.body.state).toBe("trusted");
  }

  it("a nonce nodes/attest never gave this node", () =>
    refusedThenAccepted((_, made, tpm) => quoteOnWire(tpm.quote({ ...made, nonce: randomBytes(32) })), "wrong-nonce"));

  it("another AK (another TPM quoting the node's own nonce)", () =>
    refusedThenAccepted((_, made) => quoteOnWire(demoTpmLike().quote(made)), "bad-signature"));

  it("an altered PCR value", () =>
    refusedThenAccepted((quote) => ({ ...quote, pcrs: { ...quote.pcrs, "7": GOLDEN_7.replace(/^../, "ff") } }), "pcr-digest-mismatch"));

  it("a broken signature", () =>
    refusedThenAccepted((quote) => {
      const signature = Buffer.from(quote.signature, "base64");
      signature[10]! ^= 0x01;
      return { ...quote, signature: signature.toString("base64") };
    }, "bad-signature"));

  it("a replayed quote: its nonce was used", async () => {
    const golden = await goldenNode();
    const { nonce, pcrSelection } = await challengeFor(golden.node);
    const quote = quoteOnWire(golden.tpm.quote({ nonce: Buffer.from(nonce, "base64"), pcrSelection }));
    expect((await callAsNode("nodes/attest", { quote }, golden.node)).status).toBe(200);
    const before = await recorded(golden.node);
    const replayed = await callAsNode("nodes/attest", { quote }, golden.node);
    expectError(replayed, 403, "PERMISSION_DENIED");
    expect(replayed.body.error.message).toContain("wrong-nonce");
    expect(await recorded(golden.node)).toEqual(before);
  });

  it("an expired challenge", async () => {
    const golden = await goldenNode();
    const { nonce, pcrSelection } = await challengeFor(golden.node);
    const db = await getDb();
    await db.nodeAttestationChallenge.updateMany({
      where: { nodeId: golden.node.nodeId },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const refused = await callAsNode(
      "nodes/attest",
      { quote: quoteOnWire(golden.tpm.quote({ nonce: Buffer.from(nonce, "base64"), pcrSelection })) },
      golden.node,
    );
    expectError(refused, 403, "PERMISSION_DENIED");
    expect(refused.body.error.message).toContain("expired");
  });

  it("bytes that are no quote, or pcrs of the wrong shape, are 400 naming quote", async () => {
    const golden = await goldenNode();
    const { nonce, pcrSelection } = await challengeFor(golden.node);
    const quote = quoteOnWire(golden.tpm.quote({ nonce: Buffer.from(nonce, "base64"), pcrSelection }));
    for (const spoilt of [
      { ...quote, signature: randomBytes(12).toString("base64") },
      { ...quote, pcrs: { "0": ZERO } },
      { ...quote, pcrs: { ...quote.pcrs, "7": "zz" } },
    ]) {
      const refused = await callAsNode("nodes/attest", { quote: spoilt }, golden.node);
      expectError(refused, 400, "INVALID_ARGUMENT");
      expect(refused.body.error.details[0].field).toMatch(/^quote/);
    }
    const notBase64 = await callAsNode("nodes/attest", { quote: { ...quote, attest: "not base64!" } }, golden.node);
    expectError(notBase64, 400, "INVALID_ARGUMENT");
    expect(notBase64.body.error.details[0].field).toBe("quote.attest");
    expectError(await callAsNode("nodes/attest", { quote: null, extra: 1 }, golden.node), 400, "INVALID_ARGUMENT");
  });
});

describe("nodes/attest: who may, and what it needs", () => {
  it("a node without an AK (it joined without a TPM) is 409 naming it, at both steps", async () => {
    const plain = await admitNode(world);
    const asked = await callAsNode("nodes/attest", {}, plain);
    expectError(asked, 409, "INVALID_STATE");
    expect(asked.body.error.message).toContain("has no attestation key");
    const golden = await goldenNode();
    const { nonce, pcrSelection } = await challengeFor(golden.node);
    const quoted = await callAsNode(
      "nodes/attest",
      { quote: quoteOnWire(golden.tpm.quote({ nonce: Buffer.from(nonce, "base64"), pcrSelection })) },
      plain,
    );
    expectError(quoted, 409, "INVALID_STATE");
  });

  it("a pool without boot states is 409 naming it", async () => {
    const golden = await goldenNode();
    const db = await getDb();
    await db.pool.update({ where: { id: world.tpmPoolId }, data: { bootStates: [] } });
    try {
      const asked = await callAsNode("nodes/attest", {}, golden.node);
      expectError(asked, 409, "INVALID_STATE");
      expect(asked.body.error.message).toContain(`pool ${world.tpmPoolId} has no boot states`);
    } finally {
      await db.pool.update({ where: { id: world.tpmPoolId }, data: { bootStates: BOOT_STATES } });
    }
  });

  it("another node's credential cannot use this node's nonce: 403, neither node records anything", async () => {
    const victim = await goldenNode();
    const other = await goldenNode();
    const { nonce, pcrSelection } = await challengeFor(victim.node);
    const quote = quoteOnWire(victim.tpm.quote({ nonce: Buffer.from(nonce, "base64"), pcrSelection }));
    const [victimBefore, otherBefore] = [await recorded(victim.node), await recorded(other.node)];
    const refused = await callAsNode("nodes/attest", { quote }, other.node);
    expectError(refused, 403, "PERMISSION_DENIED");
    expect(await recorded(victim.node)).toEqual(victimBefore);
    expect(await recorded(other.node)).toEqual(otherBefore);
  });

  it("a revoked node, a JWT made for another method, or no credential: 401", async () => {
    const golden = await goldenNode();
    const wrongAudience = await signNodeToken({
      privateKeyPem: golden.node.privateKeyPem,
      nodeId: golden.node.nodeId,
      method: "inventory/report",
    });
    expectError(await callAsNode("nodes/attest", {}, golden.node, { token: wrongAudience }), 401, "UNAUTHENTICATED");
    expectError(await callMethod("nodes/attest", {}, {}), 401, "UNAUTHENTICATED");
    const revoked = await callMethod(
      "nodes/revoke",
      { tenantId: world.tenantId, nodeId: golden.node.nodeId, reason: "decommissioned" },
      { bearer: world.keys.admin },
    );
    expect(revoked.status).toBe(200);
    expectError(await callAsNode("nodes/attest", {}, golden.node), 401, "UNAUTHENTICATED");
  });
});

describe("nodes/attest after an approval: the AK the join proved is kept when the retry presents it", () => {
  /** A site-key TPM join no inventory knows: proven, pending, approved into the TPM pool; the retry (with `retryBody`) admits. */
  async function approvedTpmNode(retryBody: (body: Record<string, unknown>) => Record<string, unknown>): Promise<Attesting> {
    const tpm = demoTpmLike();
    const keys = await makeKeyAndCsr(`approved-${randomBytes(4).toString("hex")}.node.test`);
    const machine = await makeMachine({ tpm, csr: keys.csrPem });
    const { response } = await joinThroughTpm(machine, world.siteKey);
    expect(response.body.status, response.text).toBe("pending");
    const approved = await callMethod(
      "joinRequests/approve",
      { tenantId: world.tenantId, poolId: world.tpmPoolId, requestId: response.body.requestId },
      { bearer: world.keys.admin },
    );
    expect(approved.status, approved.text).toBe(200);
    const admitted = await join(retryBody(joinBody(machine)), world.siteKey);
    expect(admitted.status, admitted.text).toBe(200);
    return {
      tpm,
      node: { nodeId: admitted.body.nodeId, privateKeyPem: keys.privateKeyPem, certificatePem: admitted.body.certificate, machine },
    };
  }

  it("the retry with the proven AK: the node attests trusted", async () => {
    const approved = await approvedTpmNode((body) => body);
    expect((await attest(approved)).body).toMatchObject({ state: "trusted", bootState: "golden-2026-12" });
  });

  it("a retry presenting another AK records none: 409 no attestation key", async () => {
    const other = demoTpm();
    const approved = await approvedTpmNode((body) => ({
      ...body,
      tpm: { ...(body.tpm as object), akPublic: other.akPublic.toString("base64") },
    }));
    expectError(await callAsNode("nodes/attest", {}, approved.node), 409, "INVALID_STATE");
  });
});

describe("metrics: active nodes by attestation per pool", () => {
  it("bc_nodes_by_attestation moves a node from stale to trusted to untrusted", async () => {
    const counts = async () => {
      const families = await scrape();
      const of = (state: string) => sample(families, "bc_nodes_by_attestation", { tenant: world.tenantId, pool: world.tpmPoolId, state });
      return { trusted: of("trusted"), untrusted: of("untrusted"), stale: of("stale") };
    };
    const before = await counts();
    const golden = await goldenNode();
    expect(await counts()).toEqual({ ...before, stale: before.stale + 1 });
    await attest(golden);
    expect(await counts()).toEqual({ ...before, trusted: before.trusted + 1 });
    golden.tpm.extendPcr(0, randomBytes(32));
    await attest(golden);
    expect(await counts()).toEqual({ ...before, untrusted: before.untrusted + 1 });
  });
});

/** Another machine's TPM: the same demo EK, a fresh AK of its own, booted the golden state too. */
function demoTpmLike(): SoftwareTpm {
  const tpm = demoTpm();
  tpm.extendPcr(7, BOOTLOADER);
  return tpm;
}
