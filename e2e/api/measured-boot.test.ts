import { createHash, randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { quoteOnWire, SoftwareTpm } from "@/lib/tpm/software-tpm";
import { callMethod, expectError } from "@/test/api/api-client";
import { addPool, createServiceKey, eventsOf } from "@/test/api/world";
import {
  activatedBody,
  createJoinTokenRow,
  createJoinWorld,
  csrSha256,
  demoTpm,
  freshTpm,
  join,
  knownMachine,
  makeMachine,
  type JoinWorld,
  type Machine,
} from "@/test/api/machine";

// SPEC I2 over HTTP, with the software TPM of F5 (PCRs start at zero and
// change by extension, as a real TPM's): a TPM join into a pool with known
// boot states is challenged for a quote; a matching boot is admitted, an
// unknown one deferred boot-state-unknown with its values, a bad quote 403.
let world: JoinWorld;
let tenantAdmin: string;
/** requires TPM and a known boot */
let strictPool: string;
let strictToken: string;
/** requires a known boot, not TPM */
let bootOnlyToken: string;
let bootOnlyPool: string;
/** knows the state, requires nothing */
let observingToken: string;

const ZERO = "00".repeat(32);
/** PCR 7 after one extension by 32 bytes of `byte`, as the TPM computes it. */
const extended = (byte: number) => createHash("sha256").update(Buffer.alloc(32)).update(Buffer.alloc(32, byte)).digest("hex");
const KNOWN = { name: "golden-2026-12", pcrs: { "0": ZERO, "7": extended(0xaa) } };

const updatePool = (body: Record<string, unknown>, bearer = tenantAdmin) =>
  callMethod("pools/update", { tenantId: world.tenantId, ...body }, { bearer });

async function poolWithStates(requireKnownBoot: boolean, requiresTpm: boolean) {
  const poolId = await addPool(world);
  if (requiresTpm) await (await getDb()).pool.update({ where: { id: poolId }, data: { requiresTpm } });
  const response = await updatePool({ poolId, bootStates: [KNOWN], requireKnownBoot });
  expect(response.status, response.text).toBe(200);
  return { poolId, token: await createJoinTokenRow(world.tenantId, poolId) };
}

beforeAll(async () => {
  world = await createJoinWorld();
  tenantAdmin = await createServiceKey(world.tenantId, [{ tenantId: world.tenantId, poolId: null, role: "tenant_admin" }]);
  ({ poolId: strictPool, token: strictToken } = await poolWithStates(true, true));
  ({ poolId: bootOnlyPool, token: bootOnlyToken } = await poolWithStates(true, false));
  ({ token: observingToken } = await poolWithStates(false, false));
});

/** A machine the inventory knows, whose TPM booted `byte` into PCR 7 (0xaa: the known state). */
async function bootedMachine(byte = 0xaa, tpm: SoftwareTpm = demoTpm()): Promise<Machine> {
  tpm.extendPcr(7, Buffer.alloc(32, byte));
  return knownMachine(world.inventory.known, { tpm });
}

type QuoteBody = { attest: string; signature: string; pcrs: Record<string, string> };
type Body = ReturnType<typeof activatedBody> & { tpm: { quote?: QuoteBody } };

/** The challenge, then the activated join with the TPM's quote of what the challenge asked, changed by `change`. */
async function quotedJoin(machine: Machine, token: string, change: (body: Body, nonce: Buffer) => void = () => {}) {
  const challenge = await join(machine, token);
  expect(challenge.body.status, challenge.text).toBe("challenge");
  const nonce = Buffer.from(challenge.body.nonce, "base64");
  const body: Body = activatedBody(machine, challenge.body);
  body.tpm.quote = quoteOnWire(machine.tpm!.quote({ nonce, pcrSelection: challenge.body.pcrSelection }));
  change(body, nonce);
  return { challenge, body, response: await join(body, token) };
}

const recordedFor = async (csr: string) => {
  const db = await getDb();
  const sha = csrSha256(csr);
  return {
    requests: await db.joinRequest.count({ where: { csrSha256: sha } }),
    nodes: await db.node.count({ where: { csrSha256: sha } }),
    measurements: await db.joinRequestBootMeasurement.count({ where: { request: { csrSha256: sha } } }),
  };
};
const NOTHING = { requests: 0, nodes: 0, measurements: 0 };

const listedRequest = async (poolId: string, requestId: string) => {
  const response = await callMethod(
    "joinRequests/list",
    { tenantId: world.tenantId, poolId, state: "all", limit: 200 },
    { bearer: tenantAdmin },
  );
  return (response.body.joinRequests as { id: string; bootMeasurement: unknown; reasons: string[] }[]).find(
    (each) => each.id === requestId,
  );
};

describe("the challenge in a pool with boot states", () => {
  it("also answers a 32-byte nonce and the PCRs the pool's states name, kept with the challenge", async () => {
    const machine = await bootedMachine();
    const challenge = await join(machine, strictToken);
    expect(challenge.status).toBe(202);
    expect(challenge.body.pcrSelection).toEqual([0, 7]);
    const nonce = Buffer.from(challenge.body.nonce, "base64");
    expect(nonce).toHaveLength(32);
    const stored = await (await getDb()).tpmChallenge.findUniqueOrThrow({ where: { id: challenge.body.challengeId } });
    expect(Buffer.from(stored.quoteNonce!)).toEqual(nonce);
    expect(stored.pcrSelection).toEqual([0, 7]);
  });

  it("a pool without boot states asks for no quote, exactly as before", async () => {
    const machine = await knownMachine(world.inventory.known, { tpm: demoTpm() });
    const challenge = await join(machine, world.tokens.tpm);
    expect(Object.keys(challenge.body).sort()).toEqual(["challengeId", "credentialBlob", "encryptedSecret", "expiresAt", "status"]);
    const body = activatedBody(machine, challenge.body);
    expect((await join(body, world.tokens.tpm)).status).toBe(200);
  });
});

describe("the quoted boot", () => {
  it("values matching a known state are admitted", async () => {
    const machine = await bootedMachine();
    const { response } = await quotedJoin(machine, strictToken);
    expect(response.status, response.text).toBe(200);
    expect(response.body.status).toBe("admitted");
  });

  it("a changed PCR defers boot-state-unknown, and the request shows the values", async () => {
    const machine = await bootedMachine(0xbb);
    const { response } = await quotedJoin(machine, strictToken);
    expect(response.status, response.text).toBe(202);
    expect(response.body.reasons).toEqual(["boot-state-unknown"]);
    const listed = await listedRequest(strictPool, response.body.requestId);
    expect(listed?.bootMeasurement).toEqual({ pcrs: { "0": ZERO, "7": extended(0xbb) }, bootState: null });
  });

  it("a request deferred for another reason keeps the state its values matched", async () => {
    const machine = await makeMachine({ tpm: demoTpm() }); // unknown to discovery
    machine.tpm!.extendPcr(7, Buffer.alloc(32, 0xaa));
    const { response } = await quotedJoin(machine, strictToken);
    expect(response.body.reasons).toEqual(["unknown-to-discovery"]);
    expect((await listedRequest(strictPool, response.body.requestId))?.bootMeasurement).toEqual({
      pcrs: KNOWN.pcrs,
      bootState: KNOWN.name,
    });
  });

  it("where a known boot is not required, unknown values are measured and the join carries on as before", async () => {
    const admitted = await bootedMachine(0xcc);
    expect((await quotedJoin(admitted, observingToken)).response.status).toBe(200);
    const unknown = await makeMachine({ tpm: demoTpm() });
    unknown.tpm!.extendPcr(7, Buffer.alloc(32, 0xcc));
    const { response } = await quotedJoin(unknown, observingToken);
    expect(response.body.reasons).toEqual(["unknown-to-discovery"]);
    expect(await recordedFor(unknown.csr)).toEqual({ requests: 1, nodes: 0, measurements: 1 });
  });

  it("where a known boot is not required, a retry without the quote asked for is not measured and carries on", async () => {
    // A TPM join written before Part I (F1 only) keeps joining a pool that only observes boots.
    const machine = await bootedMachine(0xcc);
    const { response } = await quotedJoin(machine, observingToken, (body) => delete body.tpm.quote);
    expect(response.status, response.text).toBe(200);
    expect(await recordedFor(machine.csr)).toEqual({ requests: 0, nodes: 1, measurements: 0 });
  });

  it("a join without a TPM into a pool that requires a known boot is refused, recording nothing", async () => {
    const machine = await knownMachine(world.inventory.known);
    const response = await join(machine, bootOnlyToken);
    expectError(response, 403, "PERMISSION_DENIED");
    expect(response.body.error.message).toContain(`pool ${bootOnlyPool} requires a known boot state`);
    expect(await recordedFor(machine.csr)).toEqual(NOTHING);
  });
});

describe("a bad quote → 403 PERMISSION_DENIED, nothing recorded, the challenge not used", () => {
  const otherAkQuote = (body: Body, nonce: Buffer) => {
    const other = freshTpm();
    other.extendPcr(7, Buffer.alloc(32, 0xaa));
    body.tpm.quote = quoteOnWire(other.quote({ nonce, pcrSelection: [0, 7] }));
  };
  it.each<[string, (body: Body, nonce: Buffer, machine: Machine) => void, string]>([
    [
      "a quote made for another nonce",
      (body, _, machine) => {
        body.tpm.quote = quoteOnWire(machine.tpm!.quote({ nonce: randomBytes(32), pcrSelection: [0, 7] }));
      },
      "wrong-nonce",
    ],
    ["a quote by another AK", otherAkQuote, "bad-signature"],
    ["an altered PCR value", (body) => (body.tpm.quote!.pcrs["7"] = extended(0xaa).replace(/^../, "ff")), "pcr-digest-mismatch"],
    [
      "a bad signature",
      (body) => {
        const signature = Buffer.from(body.tpm.quote!.signature, "base64");
        signature[10] = signature[10]! ^ 0x01;
        body.tpm.quote!.signature = signature.toString("base64");
      },
      "bad-signature",
    ],
  ])("%s", async (_, change, reason) => {
    const machine = await bootedMachine();
    const { challenge, response } = await quotedJoin(machine, strictToken, (body, nonce) => change(body, nonce, machine));
    expectError(response, 403, "PERMISSION_DENIED");
    expect(response.body.error.message).toContain(reason);
    expect(await recordedFor(machine.csr)).toEqual(NOTHING);
    expect((await (await getDb()).tpmChallenge.findUniqueOrThrow({ where: { id: challenge.body.challengeId } })).usedAt).toBeNull();
  });
});

describe("a malformed or missing quote → 400 naming the field, nothing recorded", () => {
  it.each<[string, (body: Body) => void, string]>([
    ["no quote", (body) => delete body.tpm.quote, "tpm.quote"],
    ["an attestation too short to be one", (body) => (body.tpm.quote!.attest = "AQI="), "tpm.quote.attest"],
    [
      "a quote cut short",
      (body) => (body.tpm.quote!.attest = Buffer.from(body.tpm.quote!.attest, "base64").subarray(0, 40).toString("base64")),
      "tpm.quote.attest",
    ],
    ["a signature that is not one", (body) => (body.tpm.quote!.signature = "AAAA"), "tpm.quote.signature"],
    ["a PCR missing", (body) => delete body.tpm.quote!.pcrs["7"], "tpm.quote.pcrs"],
    ["a PCR that is not hex", (body) => (body.tpm.quote!.pcrs["7"] = "zz"), "tpm.quote.pcrs"],
    ["not base64", (body) => (body.tpm.quote!.attest = "%%%%"), "tpm.quote.attest"],
  ])("%s", async (_, change, field) => {
    const machine = await bootedMachine();
    const { response } = await quotedJoin(machine, strictToken, change);
    expectError(response, 400, "INVALID_ARGUMENT");
    expect(response.body.error.details[0].field).toBe(field);
    expect(await recordedFor(machine.csr)).toEqual(NOTHING);
  });

  it("a quote sent where the challenge asked for none", async () => {
    const machine = await knownMachine(world.inventory.known, { tpm: demoTpm() });
    const challenge = await join(machine, world.tokens.tpm);
    const body: Body = activatedBody(machine, challenge.body);
    body.tpm.quote = quoteOnWire(machine.tpm!.quote({ nonce: randomBytes(32), pcrSelection: [0] }));
    const response = await join(body, world.tokens.tpm);
    expectError(response, 400, "INVALID_ARGUMENT");
    expect(response.body.error.details[0].field).toBe("tpm.quote");
    expect(await recordedFor(machine.csr)).toEqual(NOTHING);
  });
});

describe("pools/update bootStates and requireKnownBoot", () => {
  it("answers the pool with both, and the event carries the new and previous values", async () => {
    const poolId = await addPool(world);
    const response = await updatePool({ poolId, bootStates: [KNOWN], requireKnownBoot: true });
    expect(response.status, response.text).toBe(200);
    expect(response.body.pool).toMatchObject({ id: poolId, bootStates: [KNOWN], requireKnownBoot: true });
    const db = await getDb();
    const events = await db.event.findMany({ where: { poolId, type: "compute.admin.changed" } });
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({
      bootStates: [KNOWN],
      previousBootStates: [],
      requireKnownBoot: true,
      previousRequireKnownBoot: false,
    });
    const again = await updatePool({ poolId, bootStates: [KNOWN] });
    expect(again.body.pool.bootStates).toEqual([KNOWN]);
    expect(await db.event.count({ where: { poolId, type: "compute.admin.changed" } })).toBe(1); // unchanged: no event
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["a PCR index past 23", { bootStates: [{ name: "x", pcrs: { "24": ZERO } }] }, "bootStates.0.pcrs.24"],
    ["a value that is not SHA-256 hex", { bootStates: [{ name: "x", pcrs: { "7": "abc" } }] }, "bootStates.0.pcrs.7"],
    ["a name given twice", { bootStates: [KNOWN, { ...KNOWN, name: KNOWN.name.toUpperCase() }] }, "bootStates.1.name"],
    ["requireKnownBoot not a boolean", { requireKnownBoot: "yes" }, "requireKnownBoot"],
    ["requireKnownBoot with no state", { bootStates: [], requireKnownBoot: true }, "requireKnownBoot"],
  ])("%s → 400 naming the field", async (_, body, field) => {
    const poolId = await addPool(world);
    const response = await updatePool({ poolId, ...body });
    expectError(response, 400, "INVALID_ARGUMENT");
    expect(response.body.error.details[0].field).toBe(field);
  });

  it("a pool-admin may not change them (compute:pools:manage is the tenant-admin's)", async () => {
    const poolId = await addPool(world);
    expectError(await updatePool({ poolId, bootStates: [KNOWN] }, world.keys.admin), 403, "PERMISSION_DENIED");
    expect((await (await getDb()).pool.findUniqueOrThrow({ where: { id: poolId } })).bootStates).toEqual([]);
  });
});

describe("Trust this boot state", () => {
  it("adds the request's values to the pool's states and approves it; the machine's retry is admitted", async () => {
    const { poolId, token } = await poolWithStates(true, true);
    const machine = await bootedMachine(0xdd);
    const { body, response } = await quotedJoin(machine, token);
    expect(response.body.reasons).toEqual(["boot-state-unknown"]);
    const requestId = response.body.requestId;
    const listed = (await listedRequest(poolId, requestId)) as { bootMeasurement: { pcrs: Record<string, string> } };

    const trusted = await updatePool({ poolId, bootStates: [KNOWN, { name: "image-dd", pcrs: listed.bootMeasurement.pcrs }] });
    expect(trusted.status, trusted.text).toBe(200);
    const approved = await callMethod("joinRequests/approve", { tenantId: world.tenantId, poolId, requestId }, { bearer: tenantAdmin });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.state).toBe("approved");

    const retry = await join(body, token);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body.status).toBe("admitted");
    expect((await eventsOf(requestId)).map((event) => event.type)).toContain("security.join-request.approved");

    // the next machine that boots the same is admitted without a person
    const twin = await bootedMachine(0xdd);
    expect((await quotedJoin(twin, token)).response.status).toBe(200);
  });
});
