import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { callMethod, expectError } from "@/test/api/api-client";
import { addPool, eventsOf, storedRequest } from "@/test/api/world";
import {
  activatedBody,
  createJoinWorld,
  csrSha256,
  DEMO_EK_SHA256,
  demoTpm,
  join,
  joinThroughTpm,
  makeMachine,
  requestsForCsr,
  storedNodes,
  unknownEkPem,
  type JoinWorld,
  type Machine,
} from "@/test/api/machine";

// SPEC G2: a TPM pool admits only proven TPMs. The attack: a machine joins
// through the site enrollment key with no TPM (or an EK it never proved), a
// TPM pool's admin approves the unclaimed request, and the retry becomes a
// node of the TPM pool. Each refusal records nothing.
let world: JoinWorld;

beforeAll(async () => {
  world = await createJoinWorld();
});

const decide = (verb: "approve" | "reject", requestId: string, poolId: string) =>
  callMethod(
    `joinRequests/${verb}`,
    { tenantId: world.tenantId, poolId, requestId, ...(verb === "approve" ? { ttlSeconds: 3600 } : {}) },
    { bearer: world.keys.admin },
  );
/** The stored row and its events: what a refused call must leave as it was. */
const snapshot = async (requestId: string) => ({ row: await storedRequest(requestId), events: await eventsOf(requestId) });

/** A site-key join of a machine no inventory knows: an unclaimed site request. */
async function unclaimedRequest(machine: Machine): Promise<string> {
  const response = await join(machine, world.siteKey);
  expect(response.status).toBe(202);
  expect(response.body.status).toBe("pending");
  return response.body.requestId as string;
}

describe("G2: approving into a pool that requires TPM needs a proven EK", () => {
  it("a site-key join with tpm: null → approve into the TPM pool is 409 naming its TPM requirement, nothing recorded; reject still works", async () => {
    const requestId = await unclaimedRequest(await makeMachine());
    const before = await snapshot(requestId);
    expect(before.row).toMatchObject({ poolId: null, state: "pending", tpmEkSha256: null, tpmEkProven: false });

    const refused = await decide("approve", requestId, world.tpmPoolId);
    expectError(refused, 409, "INVALID_STATE");
    expect(refused.body.error.message).toContain(`pool ${world.tpmPoolId} requires a proven TPM`);
    expect(await snapshot(requestId)).toEqual(before);

    const rejected = await decide("reject", requestId, world.tpmPoolId);
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ state: "rejected", poolId: world.tpmPoolId });
  });

  it("an EK presented without an AK is not recorded as the machine's EK, and does not open the TPM pool", async () => {
    const machine = await makeMachine({ ekPublicKey: await unknownEkPem() });
    const requestId = await unclaimedRequest(machine);
    const listed = await callMethod(
      "joinRequests/list",
      { tenantId: world.tenantId, poolId: world.tpmPoolId, state: "pending", limit: 200 },
      { bearer: world.keys.admin },
    );
    const request = listed.body.joinRequests.find((r: { id: string }) => r.id === requestId);
    expect(request.machine).toMatchObject({ tpmEkSha256: null, tpmEkProven: false });
    const before = await snapshot(requestId);
    const refused = await decide("approve", requestId, world.tpmPoolId);
    expectError(refused, 409, "INVALID_STATE");
    expect(refused.body.error.message).toContain(`pool ${world.tpmPoolId} requires a proven TPM`);
    expect(await snapshot(requestId)).toEqual(before);
  });

  it("a request without a proven EK may still be approved into a pool that does not require TPM", async () => {
    const requestId = await unclaimedRequest(await makeMachine());
    const approved = await decide("approve", requestId, world.pools.a);
    expect(approved.status).toBe(200);
    expect(approved.body.machine).toMatchObject({ tpmEkSha256: null, tpmEkProven: false });
  });
});

describe("G2: a site-key join that presents a TPM is challenged before anything is recorded", () => {
  it("202 challenge and no request; after activation the request's EK is proven, it can be approved into the TPM pool and its node says so", async () => {
    const machine = await makeMachine({ tpm: demoTpm() });
    const sha = csrSha256(machine.csr);
    const { challenge, response } = await joinThroughTpm(machine, world.siteKey);
    expect(challenge.status).toBe(202);
    expect(challenge.body.status).toBe("challenge");
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ status: "pending", reasons: ["unknown-to-discovery"] });
    const [request] = await requestsForCsr(sha);
    expect(request).toMatchObject({ poolId: null, tpmEkSha256: DEMO_EK_SHA256, tpmEkProven: true });

    const approved = await decide("approve", request!.id, world.tpmPoolId);
    expect(approved.status).toBe(200);
    expect(approved.body.machine).toMatchObject({ tpmEkSha256: DEMO_EK_SHA256, tpmEkProven: true });

    const admitted = await join(machine, world.siteKey);
    expect(admitted.status).toBe(200);
    const [node] = await storedNodes(sha);
    expect(node).toMatchObject({ poolId: world.tpmPoolId, tpmEkSha256: DEMO_EK_SHA256, tpmEkProven: true });
  });

  it("the first step records nothing: no request, no node, no event", async () => {
    const machine = await makeMachine({ tpm: demoTpm() });
    const sha = csrSha256(machine.csr);
    const db = await getDb();
    const eventsBefore = await db.event.count({ where: { tenantId: world.tenantId } });
    const challenge = await join(machine, world.siteKey);
    expect(challenge.status).toBe(202);
    expect(challenge.body.status).toBe("challenge");
    expect(await requestsForCsr(sha)).toEqual([]);
    expect(await storedNodes(sha)).toEqual([]);
    expect(await db.event.count({ where: { tenantId: world.tenantId } })).toBe(eventsBefore);
  });

  it("a wrong secret is 403 and records nothing", async () => {
    const machine = await makeMachine({ tpm: demoTpm() });
    const challenge = await join(machine, world.siteKey);
    const body = activatedBody(machine, challenge.body);
    (body.tpm as { activation: { secret: string } }).activation.secret = Buffer.alloc(32, 7).toString("base64");
    expectError(await join(body, world.siteKey), 403, "PERMISSION_DENIED");
    expect(await requestsForCsr(csrSha256(machine.csr))).toEqual([]);
  });

  it("a token join into a pool that does not require TPM and presents EK + AK is challenged too, so what it records is proven", async () => {
    const machine = await makeMachine({ tpm: demoTpm() });
    const sha = csrSha256(machine.csr);
    const { challenge, response } = await joinThroughTpm(machine, world.tokens.a);
    expect(challenge.body.status).toBe("challenge");
    expect(response.status).toBe(202);
    const [request] = await requestsForCsr(sha);
    expect(request).toMatchObject({ poolId: world.pools.a, tpmEkSha256: DEMO_EK_SHA256, tpmEkProven: true });
  });
});

describe("G2: consuming an approval into a pool that requires TPM checks again", () => {
  it("the pool started requiring TPM after the approval → the retry is 409 naming it, no node, the approval unchanged", async () => {
    const poolId = await addPool(world);
    const machine = await makeMachine();
    const requestId = await unclaimedRequest(machine);
    expect((await decide("approve", requestId, poolId)).status).toBe(200);
    const db = await getDb();
    await db.pool.update({ where: { id: poolId }, data: { requiresTpm: true } });
    const before = await snapshot(requestId);

    const retry = await join(machine, world.siteKey);
    expectError(retry, 409, "INVALID_STATE");
    expect(retry.body.error.message).toContain(`pool ${poolId} requires a proven TPM`);
    expect(await storedNodes(csrSha256(machine.csr))).toEqual([]);
    expect(await snapshot(requestId)).toEqual(before);
    expect(before.row).toMatchObject({ state: "approved", consumedAt: null });
  });
});
