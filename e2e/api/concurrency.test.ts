import { beforeAll, describe, expect, it } from "vitest";
import { callMethod, expectError, type ApiResponse } from "@/test/api/api-client";
import { createWorld, eventsOf, makeRequest, makeRequests, storedRequest, type World } from "@/test/api/world";

// SPEC B2 "Concurrency": every transition is one conditional update in one
// transaction with its event; of racing transitions exactly one wins and the
// others see the new state. Races are fired over HTTP at the same instant;
// every outcome the SPEC allows is accepted, every other one fails.
let world: World;
beforeAll(async () => {
  world = await createWorld();
});

const APPROVED = "security.join-request.approved";
const REJECTED = "security.join-request.rejected";

const decide = (method: "approve" | "reject", requestId: string, poolId = world.pools.a) =>
  callMethod(`joinRequests/${method}`, { tenantId: world.tenantId, poolId, requestId }, { bearer: world.keys.admin });

/** How many events of each type a request has; never more than one per type. */
async function eventCounts(requestId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const event of await eventsOf(requestId)) counts[event.type] = (counts[event.type] ?? 0) + 1;
  for (const [type, count] of Object.entries(counts)) expect(count, `${type} events of ${requestId}`).toBe(1);
  return counts;
}

const onlyWinner = (responses: ApiResponse[]) => {
  const winners = responses.filter((response) => response.status === 200);
  expect(winners, responses.map((response) => response.text).join("\n")).toHaveLength(1);
  return winners[0]!;
};

describe("approve and reject racing on a pending request (B2)", () => {
  const ROUNDS = 50;

  it(`${ROUNDS} rounds: either approve wins and reject withdraws it, or reject wins and approve sees rejected`, async () => {
    const ids = await makeRequests(world, ROUNDS, { poolId: world.pools.a });
    const outcomes = { approveThenWithdraw: 0, rejectFirst: 0 };
    for (const id of ids) {
      const [approve, reject] = await Promise.all([decide("approve", id), decide("reject", id)]);

      expect(reject.status, reject.text).toBe(200);
      expect(reject.body.state).toBe("rejected");
      const stored = await storedRequest(id);
      expect(stored.state).toBe("rejected");
      const counts = await eventCounts(id);
      const rejected = (await eventsOf(id)).find((event) => event.type === REJECTED)!;

      if (approve.status === 200) {
        // approve committed first: the reject withdrew the approval
        expect(approve.body.state).toBe("approved");
        expect(counts[APPROVED]).toBe(1);
        expect(rejected.data).toMatchObject({ previousState: "approved" });
        outcomes.approveThenWithdraw++;
      } else {
        // reject committed first: approve saw the rejected request
        expectError(approve, 409, "INVALID_STATE");
        expect(counts[APPROVED]).toBeUndefined();
        expect(rejected.data).toMatchObject({ previousState: "pending" });
        outcomes.rejectFirst++;
      }
      expect(counts[REJECTED]).toBe(1);
      expect(reject.body.decidedAt).toBe(stored.decidedAt?.toISOString());
    }
    expect(outcomes.approveThenWithdraw + outcomes.rejectFirst).toBe(ROUNDS);
    console.info(`approve/reject race outcomes over ${ROUNDS} rounds:`, outcomes);
  });
});

describe("the same decision many times at once (B2)", () => {
  it("20 concurrent approves of one request: all 200 with identical bodies, one approved event", async () => {
    const id = await makeRequest(world, { poolId: world.pools.a });
    const responses = await Promise.all(Array.from({ length: 20 }, () => decide("approve", id)));
    for (const response of responses) expect(response.status, response.text).toBe(200);
    expect(new Set(responses.map((response) => response.text)).size).toBe(1);
    expect(await eventCounts(id)).toEqual({ "security.join-request.created": 1, [APPROVED]: 1 });
    expect((await storedRequest(id)).expiresAt.toISOString()).toBe(responses[0]!.body.expiresAt);
  });

  it("20 concurrent rejects of one request: all 200 with identical bodies, one rejected event", async () => {
    const id = await makeRequest(world, { poolId: world.pools.a });
    const responses = await Promise.all(Array.from({ length: 20 }, () => decide("reject", id)));
    for (const response of responses) expect(response.status, response.text).toBe(200);
    expect(new Set(responses.map((response) => response.text)).size).toBe(1);
    expect(await eventCounts(id)).toEqual({ "security.join-request.created": 1, [REJECTED]: 1 });
  });
});

describe("two pools claiming one unclaimed site request at once (B2)", () => {
  const ROUNDS = 10;

  it.each([
    ["approve from pool a, approve from pool b", "approve", "approve"],
    ["approve from pool a, reject from pool b", "approve", "reject"],
  ] as const)(
    `${ROUNDS} rounds of %s: exactly one 200, the other 404, one decision event, owned by the winner`,
    async (_, first, second) => {
      const ids = await makeRequests(world, ROUNDS, { poolId: null });
      for (const id of ids) {
        const responses = await Promise.all([decide(first, id, world.pools.a), decide(second, id, world.pools.b)]);
        const winner = onlyWinner(responses);
        const loser = responses.find((response) => response !== winner)!;
        expectError(loser, 404, "NOT_FOUND");

        const winningPool = winner === responses[0] ? world.pools.a : world.pools.b;
        const stored = await storedRequest(id);
        expect(stored.poolId).toBe(winningPool);
        expect(stored.state).toBe(winner.body.state);
        const counts = await eventCounts(id);
        expect((counts[APPROVED] ?? 0) + (counts[REJECTED] ?? 0)).toBe(1);
      }
    },
  );
});
