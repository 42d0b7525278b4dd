import { Client } from "pg";
import { expect, it } from "vitest";
import { getDb } from "../db/client";
import { findPool } from "../places/find-pool";
import { addPool, createWorld, eventTypesOf, makeRequest } from "@/test/api/world";
import { untilSomeoneWaitsOn } from "@/test/harness/lock-waits";
import { approveWithQuorum } from "./approve-with-quorum";

// The race the parallel API tests hit by chance (approvals-required.test.ts,
// "5 distinct principals…"), made to happen every time: an approver that
// waits on the row lock must count the approval committed while it waited.
it("an approval that waited on the row lock counts the approval committed meanwhile, and completes a count-2 request", async () => {
  const world = await createWorld();
  const db = await getDb();
  const poolId = await addPool(world);
  await db.pool.update({ where: { id: poolId }, data: { approvalsRequired: 2 } });
  const requestId = await makeRequest(world, { poolId });
  const pool = await findPool(db, world.tenantId, poolId);

  const holder = new Client({ connectionString: process.env.DATABASE_URL });
  await holder.connect();
  try {
    // the first approver, inside its transaction: the row locked, its approval written
    await holder.query("BEGIN");
    await holder.query("SELECT 1 FROM join_requests WHERE id = $1 FOR UPDATE", [requestId]);
    await holder.query(
      "INSERT INTO join_request_approvals (request_id, principal, approved_at, ttl_seconds) VALUES ($1, 'first', now(), 900)",
      [requestId],
    );
    const second = approveWithQuorum({ db, pool, requestId, ttlSeconds: 3600, actor: "second", now: new Date() });
    await untilSomeoneWaitsOn(holder, process.env.DATABASE_URL!);
    await holder.query("COMMIT");

    const approved = await second;
    expect(approved.state).toBe("approved");
    expect((approved.approvals ?? []).map((approval) => approval.by).sort()).toEqual(["first", "second"]);
    // the smallest ttlSeconds of the two (SPEC H1)
    expect(approved.expiresAt.getTime() - approved.decidedAt!.getTime()).toBe(900_000);
    expect(await eventTypesOf(requestId)).toEqual(["security.join-request.created", "security.join-request.approved"]);
  } finally {
    await holder.end();
  }
});
