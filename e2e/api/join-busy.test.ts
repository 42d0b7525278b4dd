import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "pg";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { getDb } from "@/server/db/client";
import { untilSomeoneWaitsOn } from "@/test/harness/lock-waits";
import { createJoinTokenRow, createJoinWorld, csrSha256, join, makeMachine, requestsForCsr, type JoinWorld } from "@/test/api/machine";

// A join that waits on its token's row (a burst of machines joining through
// one token) past Prisma's interactive-transaction timeout (5 s) is rolled
// back whole and answered 503 UNAVAILABLE with Retry-After, never 500; the
// machine's retry then goes through. Here the wait is forced by holding the
// token's row lock from another session for 6.5 s once the join waits on it.
const HOLD_MS = 6_500;
let world: JoinWorld;

beforeAll(async () => {
  world = await createJoinWorld();
}, 120_000);

const tokenId = (bearer: string) => bearer.slice("bcjt_".length, bearer.indexOf("."));

describe("nodes/join when the database is too busy to finish in time", () => {
  it("answers 503 UNAVAILABLE with Retry-After, records nothing, and the retry is deferred as usual", async () => {
    const token = await createJoinTokenRow(world.tenantId, world.pools.a);
    const machine = await makeMachine();
    const locker = new Client({ connectionString: inject("databaseUrl") });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("SELECT 1 FROM join_tokens WHERE id = $1 FOR UPDATE", [tokenId(token)]);
      const pending = join(machine, token);
      await untilSomeoneWaitsOn(locker, inject("databaseUrl"));
      await sleep(HOLD_MS);
      await locker.query("ROLLBACK");
      const response = await pending;

      expect(response.status, response.text).toBe(503);
      expect(response.body.error.code).toBe("UNAVAILABLE");
      expect(response.body.error.message).toMatch(/too busy.*rolled back/);
      expect(response.headers.get("retry-after")).toBe("5");
    } finally {
      await locker.end();
    }
    expect(await requestsForCsr(csrSha256(machine.csr))).toEqual([]);
    const db = await getDb();
    expect((await db.joinToken.findUniqueOrThrow({ where: { id: tokenId(token) } })).uses).toBe(0);

    const retry = await join(machine, token);
    expect(retry.status, retry.text).toBe(202);
    expect(await requestsForCsr(csrSha256(machine.csr))).toHaveLength(1);
  }, 30_000);
});
