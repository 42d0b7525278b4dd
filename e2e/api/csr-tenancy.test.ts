import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { newId } from "@/lib/ids";
import { errorCode } from "@/test/api/api-client";
import {
  createJoinTokenRow,
  createJoinWorld,
  csrSha256,
  join,
  knownMachine,
  makeMachine,
  type JoinWorld,
  type Machine,
} from "@/test/api/machine";

// SPEC G8: a CSR belongs to its tenant. Whoever learns a CSR early and joins
// it in another tenant (here: the world's "other" tenant, playing globex)
// neither blocks the rightful tenant's join nor learns anything about it.
let world: JoinWorld;
let otherToken: string;

beforeAll(async () => {
  world = await createJoinWorld();
  otherToken = await createJoinTokenRow(world.other.tenantId, world.other.poolId);
});

/** The same CSR and hardware, as the other tenant's caller sends it. */
const copied = (machine: Machine): Machine => ({ ...machine });

async function rowsOf(csr: string) {
  const db = await getDb();
  const sha = csrSha256(csr);
  const requests = await db.joinRequest.findMany({ where: { csrSha256: sha }, select: { id: true, tenantId: true, state: true } });
  const nodes = await db.node.findMany({ where: { csrSha256: sha }, select: { id: true, tenantId: true } });
  return { requests, nodes };
}

describe("G8: a CSR's history is its tenant's", () => {
  it("a CSR pending in another tenant: the rightful tenant's join is admitted as its attestors say, and neither learns of the other", async () => {
    const machine = await knownMachine(world.inventory.known);
    const squat = await join(copied(machine), otherToken);
    expect(squat.status, squat.text).toBe(202);
    expect(squat.body.reasons).toEqual(["unknown-to-discovery"]);

    const rightful = await join(machine, world.tokens.a);
    expect(rightful.status, rightful.text).toBe(200);

    // the other tenant's retry sees only its own request, unchanged
    const squatAgain = await join(copied(machine), otherToken);
    expect(squatAgain.status).toBe(202);
    expect(squatAgain.body.requestId).toBe(squat.body.requestId);
    expect(squatAgain.text).not.toContain(rightful.body.nodeId);

    const rows = await rowsOf(machine.csr);
    expect(rows.requests).toEqual([{ id: squat.body.requestId, tenantId: world.other.tenantId, state: "pending" }]);
    expect(rows.nodes).toEqual([{ id: rightful.body.nodeId, tenantId: world.tenantId }]);
  });

  it("a CSR admitted as a node in another tenant: the rightful tenant's join is deferred as its attestors say (202), not 409", async () => {
    const machine = await makeMachine();
    // the other tenant knows the machine, so the squatter's join is admitted there
    await (
      await getDb()
    ).discoveredMachine.create({
      data: {
        id: newId("disc"),
        tenantId: world.other.tenantId,
        siteId: world.other.siteId,
        systemUuid: machine.systemUuid,
        macAddresses: machine.macAddresses,
      },
    });
    const squat = await join(copied(machine), otherToken);
    expect(squat.status, squat.text).toBe(200);

    const rightful = await join(machine, world.tokens.a);
    expect(rightful.status, rightful.text).toBe(202);
    expect(rightful.body).toMatchObject({ status: "pending", reasons: ["unknown-to-discovery"] });

    // the squatter's own history answers it: its CSR was admitted there
    const squatAgain = await join(copied(machine), otherToken);
    expect(squatAgain.status).toBe(409);
    expect(errorCode(squatAgain)).toBe("INVALID_STATE");
    expect(squatAgain.text).not.toContain(rightful.body.requestId);

    const rows = await rowsOf(machine.csr);
    expect(rows.requests).toEqual([{ id: rightful.body.requestId, tenantId: world.tenantId, state: "pending" }]);
    expect(rows.nodes).toEqual([{ id: squat.body.nodeId, tenantId: world.other.tenantId }]);
  });

  it("the rightful tenant first, then the copy: the other tenant's join is judged on its own (no 403, no 409)", async () => {
    const machine = await knownMachine(world.inventory.known);
    const rightful = await join(machine, world.tokens.a);
    expect(rightful.status).toBe(200);
    const squat = await join(copied(machine), otherToken);
    expect(squat.status, squat.text).toBe(202);
    expect(squat.body.reasons).toEqual(["unknown-to-discovery"]);
    expect(squat.text).not.toContain(rightful.body.nodeId);
  });
});
