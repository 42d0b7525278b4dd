import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { getDb, type Db } from "@/server/db/client";
import { createWorld, eventTypesOf, makeRequest } from "@/test/api/world";
import { markExpiredRequests } from "./mark-expired-requests";

// A loaded machine once made a batch outlive Prisma's default interactive
// transaction (5 s): the pass threw and rolled the batch back (issue 33).

/** The real database, each transaction slowed by `delayMs` before its work starts, as a busy machine would. */
function slowTransactions(db: Db, delayMs: number): Db {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== "$transaction") return Reflect.get(target, property, receiver);
      return (run: (tx: unknown) => Promise<unknown>, options?: object) =>
        target.$transaction(async (tx) => {
          await sleep(delayMs);
          return run(tx);
        }, options);
    },
  });
}

describe("markExpiredRequests on a slow machine", () => {
  it("a batch that takes longer than Prisma's default 5 s still commits, each request marked with its event", async () => {
    const world = await createWorld();
    const ids = await Promise.all(Array.from({ length: 3 }, () => makeRequest(world, { poolId: world.pools.a, outcome: "expired" })));
    const db = slowTransactions(await getDb(), 5_500);
    expect(await markExpiredRequests({ db, now: new Date(), tenantId: world.tenantId })).toBe(3);
    for (const id of ids) expect(await eventTypesOf(id)).toContain("security.join-request.expired");
  }, 30_000);
});
