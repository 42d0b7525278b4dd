import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { callMethod, errorCode } from "@/test/api/api-client";
import { eventTypesOf, storedRequest } from "@/test/api/world";
import { createJoinWorld, csrSha256, join, knownMachine, makeMachine, storedNodes, type JoinWorld } from "@/test/api/machine";

// SPEC G7: a stale approval never replaces a live node. An approval replaces
// the machine's active node (F2) only when a person approved exactly that:
// a request deferred with machine-already-joined.
let world: JoinWorld;

beforeAll(async () => {
  world = await createJoinWorld();
});

const approve = (requestId: string) =>
  callMethod("joinRequests/approve", { tenantId: world.tenantId, poolId: world.pools.a, requestId }, { bearer: world.keys.admin });

const tokenId = () => world.tokens.a.slice(5, world.tokens.a.indexOf("."));

async function ledger(tenantId: string) {
  const db = await getDb();
  return {
    events: await db.event.count({ where: { tenantId } }),
    nodes: await db.node.count({ where: { tenantId } }),
    tokenUses: await db.joinTokenUse.count({ where: { tokenId: tokenId() } }),
    tokenUseCount: (await db.joinToken.findUniqueOrThrow({ where: { id: tokenId() } })).uses,
  };
}

describe("G7: a stale approval never replaces a live node", () => {
  it("approved for a placeholder serial, then the UUID admitted directly: the stale retry is 409 naming the live node, nothing changes", async () => {
    const machine = await knownMachine(world.inventory.known, { serialNumber: "Default string" });
    const deferral = await join(machine, world.tokens.a);
    expect(deferral.status).toBe(202);
    expect(deferral.body.reasons).toEqual(["placeholder-hardware-id"]);
    expect((await approve(deferral.body.requestId)).status).toBe(200);

    // the same machine (UUID, MACs, name), fixed serial, another key: known to discovery, admitted at once
    const live = await makeMachine({ hostname: machine.hostname, systemUuid: machine.systemUuid, macAddresses: machine.macAddresses });
    const admitted = await join(live, world.tokens.a);
    expect(admitted.status, admitted.text).toBe(200);
    const liveNodeId = admitted.body.nodeId as string;

    const before = await ledger(world.tenantId);
    const stale = await join(machine, world.tokens.a);
    expect(stale.status, stale.text).toBe(409);
    expect(errorCode(stale)).toBe("INVALID_STATE");
    expect(stale.body.error.message).toContain(liveNodeId);

    expect(await ledger(world.tenantId)).toEqual(before);
    const db = await getDb();
    expect((await db.node.findUniqueOrThrow({ where: { id: liveNodeId } })).state).toBe("active");
    expect(await storedNodes(csrSha256(machine.csr))).toEqual([]);
    expect(await storedRequest(deferral.body.requestId)).toMatchObject({ state: "approved", consumedAt: null });
    expect(await eventTypesOf(deferral.body.requestId)).toEqual(["security.join-request.created", "security.join-request.approved"]);

    // asked again: the same answer, still nothing changed
    const again = await join(machine, world.tokens.a);
    expect(again.status).toBe(409);
    expect(await ledger(world.tenantId)).toEqual(before);
  });

  it("the same UUID in another case is the same machine: still 409", async () => {
    const machine = await knownMachine(world.inventory.known, { serialNumber: "Default string" });
    const deferral = await join(machine, world.tokens.a);
    expect((await approve(deferral.body.requestId)).status).toBe(200);
    const live = await makeMachine({ systemUuid: machine.systemUuid.toUpperCase(), macAddresses: machine.macAddresses });
    const admitted = await join(live, world.tokens.a);
    expect(admitted.status, admitted.text).toBe(200);
    const stale = await join(machine, world.tokens.a);
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toContain(admitted.body.nodeId);
  });

  it("concurrent: the stale retry races a direct admission of the machine → one active node, none revoked, the loser told why", async () => {
    const db = await getDb();
    for (let round = 0; round < 8; round++) {
      const machine = await knownMachine(world.inventory.known, { serialNumber: "Default string" });
      const deferral = await join(machine, world.tokens.a);
      expect((await approve(deferral.body.requestId)).status).toBe(200);
      const live = await makeMachine({ hostname: machine.hostname, systemUuid: machine.systemUuid, macAddresses: machine.macAddresses });
      const [stale, direct] = await Promise.all([join(machine, world.tokens.a), join(live, world.tokens.a)]);
      // the stale approval wins only if it commits first; then the direct join is deferred like any second join
      if (stale.status === 200) expect(direct.status).toBe(202);
      else expect([stale.status, direct.status]).toEqual([409, 200]);
      const nodes = await db.node.findMany({ where: { tenantId: world.tenantId, systemUuid: machine.systemUuid } });
      expect(nodes.map((node) => node.state)).toEqual(["active"]);
    }
  });

  it("a request deferred with machine-already-joined still replaces the live node when its approval is consumed (SPEC F2)", async () => {
    const first = await knownMachine(world.inventory.known);
    const firstJoin = await join(first, world.tokens.a);
    expect(firstJoin.status).toBe(200);
    const second = await makeMachine({ systemUuid: first.systemUuid, macAddresses: first.macAddresses, serialNumber: first.serialNumber });
    const deferral = await join(second, world.tokens.a);
    expect(deferral.body.reasons).toEqual(["machine-already-joined"]);
    expect((await approve(deferral.body.requestId)).status).toBe(200);
    const retry = await join(second, world.tokens.a);
    expect(retry.status).toBe(200);
    const old = await (await getDb()).node.findUniqueOrThrow({ where: { id: firstJoin.body.nodeId } });
    expect(old).toMatchObject({ state: "revoked", revokeReason: `replaced by ${retry.body.nodeId}` });
  });
});
