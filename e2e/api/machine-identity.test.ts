import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { callMethod, errorCode } from "@/test/api/api-client";
import { storedRequest } from "@/test/api/world";
import {
  createEnrollmentKeyRow,
  createJoinWorld,
  csrSha256,
  join,
  knownMachine,
  makeMachine,
  storedNodes,
  type JoinWorld,
  type Machine,
} from "@/test/api/machine";

// SPEC F2 (one active node per machine), F3 (hostnames are unique) and F4's
// enrollment-key use limit, over HTTP against a real `next start`.
let world: JoinWorld;

beforeAll(async () => {
  world = await createJoinWorld();
});

const approve = (requestId: string) =>
  callMethod("joinRequests/approve", { tenantId: world.tenantId, poolId: world.pools.a, requestId }, { bearer: world.keys.admin });

async function admitted(machine: Machine): Promise<string> {
  const response = await join(machine, world.tokens.a);
  expect(response.status, response.text).toBe(200);
  return response.body.nodeId as string;
}

/** The same machine (UUID, MACs) re-imaged: a new key pair and CSR. */
const reimaged = (machine: Machine, overrides: Partial<Machine> = {}) =>
  makeMachine({ systemUuid: machine.systemUuid, serialNumber: machine.serialNumber, macAddresses: machine.macAddresses, ...overrides });

const nodeRow = async (id: string) => (await getDb()).node.findUniqueOrThrow({ where: { id } });
const activeNodesOf = async (systemUuid: string) =>
  (await getDb()).node.findMany({ where: { tenantId: world.tenantId, systemUuid, state: "active" }, select: { id: true } });
const revokedEvents = async (nodeId: string) =>
  (await getDb()).event.findMany({ where: { type: "compute.node.revoked", data: { path: ["nodeId"], equals: nodeId } } });

describe("F2: one active node per machine", () => {
  it("a second join of a live node's UUID is deferred machine-already-joined, even when every other attestor passes", async () => {
    const first = await knownMachine(world.inventory.known);
    await admitted(first);
    const again = await join(await reimaged(first), world.tokens.a);
    expect(again.status).toBe(202);
    expect(again.body.reasons).toEqual(["machine-already-joined"]);
  });

  it("approve + consume → the new node active, the earlier one revoked 'replaced by node_…' with one revoked event", async () => {
    const first = await knownMachine(world.inventory.known);
    const oldNodeId = await admitted(first);
    const second = await reimaged(first);
    const deferral = await join(second, world.tokens.a);
    expect((await approve(deferral.body.requestId)).status).toBe(200);
    const retry = await join(second, world.tokens.a);
    expect(retry.status).toBe(200);
    const old = await nodeRow(oldNodeId);
    expect(old).toMatchObject({
      state: "revoked",
      revokeReason: `replaced by ${retry.body.nodeId}`,
      revokedBy: expect.stringMatching(/^bcjt_/),
    });
    expect(await revokedEvents(oldNodeId)).toHaveLength(1);
    expect((await activeNodesOf(first.systemUuid)).map((node) => node.id)).toEqual([retry.body.nodeId]);
  });

  it("a placeholder UUID names no machine: two nodes with one are no conflict", async () => {
    const placeholder = "03000200-0400-0500-0006-000700080009";
    for (let i = 0; i < 2; i++) {
      const machine = await makeMachine({ systemUuid: placeholder });
      const deferral = await join(machine, world.tokens.a);
      expect(deferral.body.reasons).toEqual(["placeholder-hardware-id", "unknown-to-discovery"]);
      await approve(deferral.body.requestId);
      expect((await join(machine, world.tokens.a)).status).toBe(200);
    }
  });

  it("concurrent: 12 first joins of one machine with 12 CSRs → one admitted, the rest deferred, one active node", async () => {
    const machine = await knownMachine(world.inventory.known);
    const copies = await Promise.all(Array.from({ length: 12 }, () => reimaged(machine)));
    const responses = await Promise.all(copies.map((copy) => join(copy, world.tokens.a)));
    expect(responses.map((response) => response.status).sort()).toEqual([200, ...Array(11).fill(202)]);
    for (const response of responses.filter((r) => r.status === 202)) expect(response.body.reasons).toEqual(["machine-already-joined"]);
    expect(await activeNodesOf(machine.systemUuid)).toHaveLength(1);
  });

  it("concurrent: 6 approved re-imagings of one live machine consumed at once → exactly one active node, every other revoked as replaced", async () => {
    const machine = await knownMachine(world.inventory.known);
    await admitted(machine);
    const copies = await Promise.all(Array.from({ length: 6 }, () => reimaged(machine)));
    for (const copy of copies) {
      const deferral = await join(copy, world.tokens.a);
      expect((await approve(deferral.body.requestId)).status).toBe(200);
    }
    const retries = await Promise.all(copies.map((copy) => join(copy, world.tokens.a)));
    expect(retries.map((response) => response.status)).toEqual(Array(6).fill(200));
    const db = await getDb();
    const nodes = await db.node.findMany({ where: { tenantId: world.tenantId, systemUuid: machine.systemUuid }, orderBy: { id: "asc" } });
    expect(nodes).toHaveLength(7);
    expect(nodes.filter((node) => node.state === "active")).toHaveLength(1);
    for (const node of nodes.filter((n) => n.state === "revoked")) {
      expect(node.revokeReason).toMatch(/^replaced by node_/);
      expect(await revokedEvents(node.id)).toHaveLength(1);
    }
  });
});

describe("F3: hostnames are unique", () => {
  it("a hostname an active node holds (in any case) defers hostname-in-use; the retry after approval is 409 naming it", async () => {
    const holder = await knownMachine(world.inventory.known);
    const holderId = await admitted(holder);
    const other = await knownMachine(world.inventory.known, { hostname: holder.hostname.toUpperCase() });
    const deferral = await join(other, world.tokens.a);
    expect(deferral.status).toBe(202);
    expect(deferral.body.reasons).toEqual(["hostname-in-use"]);
    await approve(deferral.body.requestId);
    const retry = await join(other, world.tokens.a);
    expect(retry.status).toBe(409);
    expect(errorCode(retry)).toBe("INVALID_STATE");
    expect(retry.body.error.message).toContain(holder.hostname.toUpperCase());
    expect(retry.body.error.message).toContain(holderId);
    expect((await storedRequest(deferral.body.requestId)).state).toBe("approved");
    expect(await storedNodes(csrSha256(other.csr))).toEqual([]);
  });

  it("a hostname taken between approval and consumption → the retry is 409 naming it, nothing admitted", async () => {
    const late = await makeMachine();
    const deferral = await join(late, world.tokens.a);
    await approve(deferral.body.requestId);
    await admitted(await knownMachine(world.inventory.known, { hostname: late.hostname }));
    const retry = await join(late, world.tokens.a);
    expect(retry.status).toBe(409);
    expect(retry.body.error.message).toContain(late.hostname);
    expect(await storedNodes(csrSha256(late.csr))).toEqual([]);
  });

  it("a revoked node gives its hostname up", async () => {
    const first = await knownMachine(world.inventory.known);
    const nodeId = await admitted(first);
    const revoke = await callMethod("nodes/revoke", { tenantId: world.tenantId, nodeId }, { bearer: world.keys.admin });
    expect(revoke.status).toBe(200);
    await admitted(await knownMachine(world.inventory.known, { hostname: first.hostname }));
  });

  it("a re-imaged machine keeping its hostname is deferred for both, and its consumption replaces the old node", async () => {
    const first = await knownMachine(world.inventory.known);
    const oldNodeId = await admitted(first);
    const second = await reimaged(first, { hostname: first.hostname });
    const deferral = await join(second, world.tokens.a);
    expect(deferral.body.reasons).toEqual(["machine-already-joined", "hostname-in-use"]);
    await approve(deferral.body.requestId);
    const retry = await join(second, world.tokens.a);
    expect(retry.status).toBe(200);
    expect((await nodeRow(oldNodeId)).state).toBe("revoked");
  });
});

describe("F4: site enrollment keys carry a use limit", () => {
  it("counted once per distinct CSR: a key of 2 uses defers two machines, retries still pass, a third machine is 401", async () => {
    const key = await createEnrollmentKeyRow(world.tenantId, world.siteId, { maxUses: 2 });
    const machines = [await makeMachine(), await makeMachine(), await makeMachine()];
    expect((await join(machines[0]!, key)).status).toBe(202);
    expect((await join(machines[1]!, key)).status).toBe(202);
    expect((await join(machines[0]!, key)).status).toBe(202);
    const third = await join(machines[2]!, key);
    expect(third.status).toBe(401);
    expect(errorCode(third)).toBe("UNAUTHENTICATED");
    const stored = await (await getDb()).siteEnrollmentKey.findUniqueOrThrow({ where: { id: key.slice(5, key.indexOf(".")) } });
    expect(stored.uses).toBe(2);
    expect(await (await getDb()).joinRequest.count({ where: { csrSha256: csrSha256(machines[2]!.csr) } })).toBe(0);
  });
});
