import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { x509 } from "@/server/pki/x509";
import { callMethod, errorCode } from "@/test/api/api-client";
import { eventsOf, storedRequest } from "@/test/api/world";
import {
  createJoinTokenRow,
  createJoinWorld,
  csrSha256,
  join,
  knownMachine,
  makeMachine,
  requestsForCsr,
  storedNodes,
  type JoinWorld,
  type Machine,
} from "@/test/api/machine";

// SPEC B5: a retry with the same CSR — pending → the same 202; approved →
// consumed once, 200; rejected → 403 JOIN_REJECTED; consumed → 409;
// expired → a fresh pending request. A token use is counted once per CSR.
let world: JoinWorld;

beforeAll(async () => {
  world = await createJoinWorld();
});

const decide = (verb: "approve" | "reject", poolId: string, requestId: string) =>
  callMethod(`joinRequests/${verb}`, { tenantId: world.tenantId, poolId, requestId }, { bearer: world.keys.admin });

/** A machine whose first join was deferred into pool a; returns it and its request id. */
async function deferred(bearer = world.tokens.a): Promise<{ machine: Machine; requestId: string }> {
  const machine = await makeMachine();
  const response = await join(machine, bearer);
  expect(response.status).toBe(202);
  return { machine, requestId: response.body.requestId };
}

const expireNow = async (requestId: string) =>
  (await getDb()).joinRequest.update({ where: { id: requestId }, data: { expiresAt: new Date(Date.now() - 1000) } });

describe("nodes/join retry", () => {
  it("pending → the same 202, the same request, no second request or event", async () => {
    const { machine, requestId } = await deferred();
    const first = await storedRequest(requestId);
    const retry = await join(machine, world.tokens.a);
    expect(retry.status).toBe(202);
    expect(retry.body).toEqual({
      status: "pending",
      requestId,
      expiresAt: first.expiresAt.toISOString(),
      reasons: ["unknown-to-discovery"],
    });
    expect(await requestsForCsr(csrSha256(machine.csr))).toHaveLength(1);
    expect((await eventsOf(requestId)).map((event) => event.type)).toEqual(["security.join-request.created"]);
  });

  it("approved → consumed exactly once: 200 admitted, a node for the request, a consumed event; then 409", async () => {
    const { machine, requestId } = await deferred();
    expect((await decide("approve", world.pools.a, requestId)).status).toBe(200);

    const admitted = await join(machine, world.tokens.a);
    expect(admitted.status).toBe(200);
    expect(admitted.body.status).toBe("admitted");
    const request = await storedRequest(requestId);
    expect(request.state).toBe("consumed");
    expect(request.consumedAt).not.toBeNull();
    const nodes = await storedNodes(csrSha256(machine.csr));
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({ id: admitted.body.nodeId, joinRequestId: requestId, poolId: world.pools.a });
    expect(new x509.X509Certificate(admitted.body.certificate).subject).toBe(`CN=${machine.hostname}`);
    const events = await eventsOf(requestId);
    expect(events.map((event) => event.type)).toEqual([
      "security.join-request.created",
      "security.join-request.approved",
      "security.join-request.consumed",
    ]);

    const again = await join(machine, world.tokens.a);
    expect(again.status).toBe(409);
    expect(errorCode(again)).toBe("INVALID_STATE");
    expect(await storedNodes(csrSha256(machine.csr))).toHaveLength(1);
  });

  it("rejected → 403 JOIN_REJECTED, every time", async () => {
    const { machine, requestId } = await deferred();
    expect((await decide("reject", world.pools.a, requestId)).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const response = await join(machine, world.tokens.a);
      expect(response.status).toBe(403);
      expect(errorCode(response)).toBe("JOIN_REJECTED");
    }
  });

  it("an approval withdrawn (rejected after approval) → 403 JOIN_REJECTED", async () => {
    const { machine, requestId } = await deferred();
    await decide("approve", world.pools.a, requestId);
    await decide("reject", world.pools.a, requestId);
    expect(errorCode(await join(machine, world.tokens.a))).toBe("JOIN_REJECTED");
  });

  it.each([
    ["pending", false],
    ["approved", true],
  ])(
    "expired (stored %s past its expiry) → a fresh pending request; the old one marked expired with its event",
    async (_state, approve) => {
      const { machine, requestId } = await deferred();
      if (approve) await decide("approve", world.pools.a, requestId);
      await expireNow(requestId);

      const retry = await join(machine, world.tokens.a);
      expect(retry.status).toBe(202);
      expect(retry.body.requestId).not.toBe(requestId);
      expect(retry.body.reasons).toEqual(["unknown-to-discovery"]);
      expect((await storedRequest(requestId)).state).toBe("expired");
      expect((await eventsOf(requestId)).map((event) => event.type).at(-1)).toBe("security.join-request.expired");
      expect((await storedRequest(retry.body.requestId)).state).toBe("pending");

      // and the fresh one is the one a later retry finds
      expect((await join(machine, world.tokens.a)).body.requestId).toBe(retry.body.requestId);
    },
  );

  it("a request retention already marked expired → a fresh request, no second expired event", async () => {
    const { machine, requestId } = await deferred();
    await (
      await getDb()
    ).joinRequest.update({ where: { id: requestId }, data: { state: "expired", expiresAt: new Date(Date.now() - 1000) } });
    const retry = await join(machine, world.tokens.a);
    expect(retry.status).toBe(202);
    expect(retry.body.requestId).not.toBe(requestId);
    expect((await eventsOf(requestId)).map((event) => event.type)).toEqual(["security.join-request.created"]);
  });

  it("a CSR admitted directly (no request) → 409 INVALID_STATE on its retry, one node", async () => {
    const machine = await knownMachine(world.inventory.known);
    expect((await join(machine, world.tokens.a)).status).toBe(200);
    const again = await join(machine, world.tokens.a);
    expect(again.status).toBe(409);
    expect(errorCode(again)).toBe("INVALID_STATE");
    expect(await storedNodes(csrSha256(machine.csr))).toHaveLength(1);
  });

  it("an unclaimed site request, approved by a pool, is admitted into that pool on the site key's retry", async () => {
    const machine = await makeMachine();
    const first = await join(machine, world.siteKey);
    expect(first.status).toBe(202);
    expect((await decide("approve", world.pools.b, first.body.requestId)).status).toBe(200);
    const admitted = await join(machine, world.siteKey);
    expect(admitted.status).toBe(200);
    expect((await storedNodes(csrSha256(machine.csr)))[0]).toMatchObject({ poolId: world.pools.b, joinRequestId: first.body.requestId });
  });

  it("a retry with a token of another pool is PERMISSION_DENIED", async () => {
    const { machine, requestId } = await deferred();
    await decide("approve", world.pools.a, requestId);
    const response = await join(machine, world.tokens.b);
    expect(response.status).toBe(403);
    expect(errorCode(response)).toBe("PERMISSION_DENIED");
    expect((await storedRequest(requestId)).state).toBe("approved");
  });

  it("a site enrollment key cannot continue or consume a request that came through another site's credential (SPEC F4)", async () => {
    const { machine, requestId } = await deferred(world.tokens.otherSite);
    const refusedWhilePending = await join(machine, world.siteKey);
    expect(refusedWhilePending.status).toBe(403);
    expect(errorCode(refusedWhilePending)).toBe("PERMISSION_DENIED");
    await decide("approve", world.pools.otherSite, requestId);
    const refusedApproved = await join(machine, world.siteKey);
    expect(refusedApproved.status).toBe(403);
    expect(errorCode(refusedApproved)).toBe("PERMISSION_DENIED");
    expect((await storedRequest(requestId)).state).toBe("approved");
    expect(await storedNodes(csrSha256(machine.csr))).toEqual([]);
    expect(await requestsForCsr(csrSha256(machine.csr))).toHaveLength(1);
  });
});

describe("join token uses: once per distinct CSR", () => {
  it("a single-use token: the first join uses it, its retries (pending, then approved) still get through", async () => {
    const token = await createJoinTokenRow(world.tenantId, world.pools.a, { maxUses: 1 });
    const { machine, requestId } = await deferred(token);
    expect((await join(machine, token)).status).toBe(202);
    await decide("approve", world.pools.a, requestId);
    expect((await join(machine, token)).status).toBe(200);

    const db = await getDb();
    const tokenId = token.slice(5).split(".")[0]!;
    expect((await db.joinToken.findUniqueOrThrow({ where: { id: tokenId } })).uses).toBe(1);
    expect(await db.joinTokenUse.count({ where: { tokenId } })).toBe(1);
    // a second machine finds it used up
    expect((await join(await makeMachine(), token)).status).toBe(401);
  });

  it("a CSR refused by a token spent under it is refused again on its retry: the refusal recorded no use for it", async () => {
    // Ten at once: most pass the early uses-left check and meet the spent
    // token only at the count. A use row written without its increment
    // would let such a CSR through on its next try.
    const token = await createJoinTokenRow(world.tenantId, world.pools.a, { maxUses: 1 });
    const machines = await Promise.all(Array.from({ length: 10 }, () => knownMachine(world.inventory.known)));
    const first = await Promise.all(machines.map((machine) => join(machine, token)));
    expect(first.map((response) => response.status).sort()).toEqual([200, ...Array(9).fill(401)]);
    for (const [index, machine] of machines.entries()) {
      if (first[index]!.status === 401) expect((await join(machine, token)).status).toBe(401);
    }
    const tokenId = token.slice(5).split(".")[0]!;
    const db = await getDb();
    expect(await db.joinTokenUse.count({ where: { tokenId } })).toBe(1);
    expect((await db.joinToken.findUniqueOrThrow({ where: { id: tokenId } })).uses).toBe(1);
  });

  it("an expired request's retry starts over without a second use", async () => {
    const token = await createJoinTokenRow(world.tenantId, world.pools.a, { maxUses: 1 });
    const { machine, requestId } = await deferred(token);
    await expireNow(requestId);
    expect((await join(machine, token)).status).toBe(202);
  });
});
