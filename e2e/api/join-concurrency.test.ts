import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { callMethod } from "@/test/api/api-client";
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
} from "@/test/api/machine";

// SPEC B2/B5 under concurrency: an approval admits exactly one join; a
// rejection racing the machine's retry never lets both win; a token's uses
// hold under a burst; one CSR never makes two live requests.
let world: JoinWorld;

beforeAll(async () => {
  world = await createJoinWorld();
});

const decide = (verb: "approve" | "reject", requestId: string) =>
  callMethod(`joinRequests/${verb}`, { tenantId: world.tenantId, poolId: world.pools.a, requestId }, { bearer: world.keys.admin });

const countBy = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

describe("nodes/join under concurrency", () => {
  it("50 concurrent retries of one approved CSR: exactly one 200, the rest 409; one node, one consumed event", async () => {
    const machine = await makeMachine();
    const { body } = await join(machine, world.tokens.a);
    expect((await decide("approve", body.requestId)).status).toBe(200);

    const responses = await Promise.all(Array.from({ length: 50 }, () => join(machine, world.tokens.a)));
    expect(countBy(responses.map((response) => response.status))).toEqual({ 200: 1, 409: 49 });
    for (const response of responses.filter((r) => r.status === 409)) expect(response.body.error.code).toBe("INVALID_STATE");

    expect(await storedNodes(csrSha256(machine.csr))).toHaveLength(1);
    const consumed = (await eventsOf(body.requestId)).filter((event) => event.type === "security.join-request.consumed");
    expect(consumed).toHaveLength(1);
  });

  it("a rejection racing the retry of an approved CSR, 30 rounds: never both a rejection and an admission", async () => {
    const outcomes = { admitted: 0, rejected: 0 };
    for (let round = 0; round < 30; round++) {
      const machine = await makeMachine();
      const { body } = await join(machine, world.tokens.a);
      await decide("approve", body.requestId);
      const [retry, rejection] = await Promise.all([join(machine, world.tokens.a), decide("reject", body.requestId)]);
      const stored = await storedRequest(body.requestId);
      const nodes = await storedNodes(csrSha256(machine.csr));
      if (retry.status === 200) {
        expect(rejection.status, `round ${round}`).toBe(409);
        expect(stored.state).toBe("consumed");
        expect(nodes).toHaveLength(1);
        outcomes.admitted++;
      } else {
        expect(retry.status, `round ${round}`).toBe(403);
        expect(retry.body.error.code).toBe("JOIN_REJECTED");
        expect(rejection.status).toBe(200);
        expect(stored.state).toBe("rejected");
        expect(nodes).toHaveLength(0);
        outcomes.rejected++;
      }
    }
    expect(outcomes.admitted + outcomes.rejected).toBe(30);
  });

  it("a token with maxUses 3 and 20 distinct machines at once: exactly 3 get past the token, the rest 401", async () => {
    const token = await createJoinTokenRow(world.tenantId, world.pools.a, { maxUses: 3 });
    const machines = await Promise.all(Array.from({ length: 20 }, () => makeMachine()));
    const responses = await Promise.all(machines.map((machine) => join(machine, token)));
    expect(countBy(responses.map((response) => response.status))).toEqual({ 202: 3, 401: 17 });
    const tokenId = token.slice(5).split(".")[0]!;
    const db = await getDb();
    expect((await db.joinToken.findUniqueOrThrow({ where: { id: tokenId } })).uses).toBe(3);
    expect(await db.joinTokenUse.count({ where: { tokenId } })).toBe(3);
    expect(await db.joinRequest.count({ where: { joinTokenId: tokenId } })).toBe(3);
  });

  it("a token with maxUses 3 and 20 distinct known machines at once: exactly 3 admitted, the rest 401, three uses", async () => {
    // The admission counts its use in a statement of its own (countJoinCredentialUse): the cap holds there too.
    const token = await createJoinTokenRow(world.tenantId, world.pools.a, { maxUses: 3 });
    const machines = await Promise.all(Array.from({ length: 20 }, () => knownMachine(world.inventory.known)));
    const responses = await Promise.all(machines.map((machine) => join(machine, token)));
    expect(countBy(responses.map((response) => response.status))).toEqual({ 200: 3, 401: 17 });
    const tokenId = token.slice(5).split(".")[0]!;
    const db = await getDb();
    expect((await db.joinToken.findUniqueOrThrow({ where: { id: tokenId } })).uses).toBe(3);
    const uses = await db.joinTokenUse.findMany({ where: { tokenId } });
    const admitted = machines.filter((_, index) => responses[index]!.status === 200).map((machine) => csrSha256(machine.csr));
    expect(uses.map((use) => use.csrSha256).sort()).toEqual(admitted.sort());
    expect(await db.node.count({ where: { joinTokenId: tokenId } })).toBe(3);
  });

  it("20 concurrent first joins of one known machine's CSR admit one node and count one use", async () => {
    const token = await createJoinTokenRow(world.tenantId, world.pools.a, { maxUses: 5 });
    const machine = await knownMachine(world.inventory.known);
    const responses = await Promise.all(Array.from({ length: 20 }, () => join(machine, token)));
    // one admitted; every other finds the CSR admitted, read before its attestors ran or in its deferral (defer-join.ts)
    expect(countBy(responses.map((response) => response.status))).toEqual({ 200: 1, 409: 19 });
    expect(await storedNodes(csrSha256(machine.csr))).toHaveLength(1);
    const tokenId = token.slice(5).split(".")[0]!;
    const db = await getDb();
    expect((await db.joinToken.findUniqueOrThrow({ where: { id: tokenId } })).uses).toBe(1);
    expect(await db.joinTokenUse.count({ where: { tokenId } })).toBe(1);
  });

  it("20 concurrent first joins with one CSR make one pending request, all answered with it, one token use", async () => {
    const token = await createJoinTokenRow(world.tenantId, world.pools.a, { maxUses: 5 });
    const machine = await makeMachine();
    const responses = await Promise.all(Array.from({ length: 20 }, () => join(machine, token)));
    expect(new Set(responses.map((response) => response.status))).toEqual(new Set([202]));
    const requests = await requestsForCsr(csrSha256(machine.csr));
    expect(requests).toHaveLength(1);
    expect(new Set(responses.map((response) => response.body.requestId))).toEqual(new Set([requests[0]!.id]));
    const tokenId = token.slice(5).split(".")[0]!;
    expect((await (await getDb()).joinToken.findUniqueOrThrow({ where: { id: tokenId } })).uses).toBe(1);
  });

  it("the database refuses a second live request for one CSR in a tenant (join_requests_tenant_live_csr_key)", async () => {
    const machine = await makeMachine();
    const { body } = await join(machine, world.tokens.a);
    const db = await getDb();
    const existing = await storedRequest(body.requestId);
    const { id: _id, ...copy } = existing;
    // an id of its own, so only the live-CSR key can refuse it (a copy ending like the original would hit the primary key)
    const otherId = `${existing.id.slice(0, -1)}${existing.id.endsWith("0") ? "1" : "0"}`;
    const refusal = await db.joinRequest.create({ data: { ...copy, id: otherId } }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toMatchObject({ code: "P2002" });
    expect(String((refusal as Error).message)).toContain("join_requests_tenant_live_csr_key");
    // a decided one does not count
    await decide("reject", body.requestId);
    await expect(db.joinRequest.create({ data: { ...copy, id: otherId } })).resolves.toMatchObject({ id: otherId });
  });
});
