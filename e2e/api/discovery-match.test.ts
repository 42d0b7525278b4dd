import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { newId } from "@/lib/ids";
import { storedRequest } from "@/test/api/world";
import { createJoinWorld, csrSha256, join, knownMachine, makeMachine, storedNodes, type JoinWorld, type Machine } from "@/test/api/machine";

// SPEC G3: discovery knows a machine, not a MAC. MACs are visible on the
// network; a fresh UUID with a discovered (or a live node's) MAC must not be
// "known". UUIDs compare case-insensitively, in discovery and in F2.
let world: JoinWorld;

beforeAll(async () => {
  world = await createJoinWorld();
});

const pendingWith = async (response: Awaited<ReturnType<typeof join>>, machine: Machine, reasons: string[]) => {
  expect(response.status, response.text).toBe(202);
  expect(response.body).toMatchObject({ status: "pending", reasons });
  expect(await storedNodes(csrSha256(machine.csr))).toEqual([]);
  return storedRequest(response.body.requestId);
};

/** A discovery entry written as an old import may have stored it (any case), in the world's site. */
async function addEntry(entry: { systemUuid: string; macAddresses: string[]; assignedPoolId?: string | null }) {
  await (
    await getDb()
  ).discoveredMachine.create({
    data: { id: newId("disc"), tenantId: world.tenantId, siteId: world.siteId, assignedPoolId: null, ...entry },
  });
}

describe("G3: a MAC alone is no identity", () => {
  it("a fresh UUID with a discovered machine's MAC → 202 unknown-to-discovery, no node", async () => {
    const attacker = await makeMachine({ macAddresses: world.inventory.known.macAddresses });
    await pendingWith(await join(attacker, world.tokens.a), attacker, ["unknown-to-discovery"]);
  });

  it("a fresh UUID with an active node's MAC → 202 unknown-to-discovery; the live node is untouched", async () => {
    const live = await knownMachine(world.inventory.known);
    const admitted = await join(live, world.tokens.a);
    expect(admitted.status).toBe(200);
    const attacker = await makeMachine({ macAddresses: ["02:00:00:00:00:07", ...live.macAddresses] });
    await pendingWith(await join(attacker, world.tokens.a), attacker, ["unknown-to-discovery"]);
    expect((await (await getDb()).node.findUniqueOrThrow({ where: { id: admitted.body.nodeId } })).state).toBe("active");
  });

  it("the right UUID but none of the entry's MACs → unknown-to-discovery", async () => {
    const entry = await knownMachine(world.inventory.known);
    const impostor = await makeMachine({ systemUuid: entry.systemUuid, macAddresses: ["02:00:00:00:00:08"] });
    await pendingWith(await join(impostor, world.tokens.a), impostor, ["unknown-to-discovery"]);
  });

  it("a placeholder UUID matches nothing, not even with the entry's MACs", async () => {
    const machine = await makeMachine({
      systemUuid: "00000000-0000-0000-0000-000000000000",
      macAddresses: world.inventory.known.macAddresses,
    });
    await pendingWith(await join(machine, world.tokens.a), machine, ["placeholder-hardware-id", "unknown-to-discovery"]);
  });

  it("an entry without MACs is matched by its UUID alone", async () => {
    const machine = await makeMachine();
    await addEntry({ systemUuid: machine.systemUuid, macAddresses: [] });
    expect((await join(machine, world.tokens.a)).status).toBe(200);
  });
});

describe("G3: UUIDs compare case-insensitively", () => {
  it("the discovered UUID in upper case with one of its MACs (in any case) → admitted, as in lower case", async () => {
    const entry = await knownMachine(world.inventory.known);
    const upper = await makeMachine({
      systemUuid: entry.systemUuid.toUpperCase(),
      macAddresses: ["02:00:00:00:00:09", entry.macAddresses[0]!.toUpperCase()],
    });
    expect((await join(upper, world.tokens.a)).status).toBe(200);
    const lowerEntry = await knownMachine(world.inventory.known);
    expect((await join(lowerEntry, world.tokens.a)).status).toBe(200);
  });

  it("a live node's UUID in another case → machine-already-joined (SPEC F2)", async () => {
    const live = await knownMachine(world.inventory.known);
    expect((await join(live, world.tokens.a)).status).toBe(200);
    const again = await makeMachine({ systemUuid: live.systemUuid.toUpperCase(), macAddresses: live.macAddresses });
    await pendingWith(await join(again, world.tokens.a), again, ["machine-already-joined"]);
  });
});

describe("G3: a site enrollment key is routed only on a UUID (and MAC) match", () => {
  it("a fresh UUID with the MAC of an entry assigned to pool b → an unclaimed request, not pool b", async () => {
    const attacker = await makeMachine({ macAddresses: world.inventory.assignedToB.macAddresses });
    const request = await pendingWith(await join(attacker, world.siteKey), attacker, ["unknown-to-discovery"]);
    expect(request.poolId).toBeNull();
  });

  it("the assigned entry's UUID with none of its MACs → unclaimed", async () => {
    const entry = await knownMachine(world.inventory.assignedToB);
    const impostor = await makeMachine({ systemUuid: entry.systemUuid, macAddresses: ["02:00:00:00:00:0a"] });
    const request = await pendingWith(await join(impostor, world.siteKey), impostor, ["unknown-to-discovery"]);
    expect(request.poolId).toBeNull();
  });

  it("the assigned entry's UUID (upper case) with one of its MACs → admitted into pool b", async () => {
    const entry = await knownMachine(world.inventory.assignedToB);
    const machine = await makeMachine({ systemUuid: entry.systemUuid.toUpperCase(), macAddresses: entry.macAddresses });
    const response = await join(machine, world.siteKey);
    expect(response.status, response.text).toBe(200);
    expect((await (await getDb()).node.findUniqueOrThrow({ where: { id: response.body.nodeId } })).poolId).toBe(world.pools.b);
  });
});
