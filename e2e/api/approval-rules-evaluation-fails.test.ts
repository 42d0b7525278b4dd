import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getDb } from "@/server/db/client";
import { sweepUnevaluatedRequests } from "@/server/approval-rules/sweep-unevaluated-requests";
import { createJoinTokenRow, createJoinWorld, join, makeMachine, type JoinWorld } from "@/test/api/machine";
import { addPool, eventTypesOf, storedRequest } from "@/test/api/world";
import { createRule } from "@/test/api/rules";

// SPEC H2 with B5: rule evaluation runs right after the join's commit, so a
// failure there (injected: a trigger refuses to mark this pool's requests
// evaluated, rolling the evaluation back) must not reach the machine. Its
// answer is B5's 202 pending; the request stays unevaluated and the sweep
// evaluates it once the failure is gone.
let world: JoinWorld;
let poolId: string;
let token: string;
const trigger = () => `bc_test_fail_rules_${poolId.replace(/\W/g, "_")}`;

beforeAll(async () => {
  world = await createJoinWorld();
  poolId = await addPool(world);
  token = await createJoinTokenRow(world.tenantId, poolId);
  const db = await getDb();
  await db.$executeRawUnsafe(`CREATE FUNCTION ${trigger()}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'injected: rule evaluation fails'; END $$`);
  // only this pool's requests, only the write that marks them evaluated
  await db.$executeRawUnsafe(`CREATE TRIGGER ${trigger()} BEFORE UPDATE OF rules_evaluated_at ON join_requests FOR EACH ROW
    WHEN (NEW.pool_id = '${poolId}' AND OLD.rules_evaluated_at IS NULL AND NEW.rules_evaluated_at IS NOT NULL)
    EXECUTE FUNCTION ${trigger()}()`);
});
afterAll(() => removeFailure());

async function removeFailure() {
  const db = await getDb();
  await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS ${trigger()} ON join_requests`);
  await db.$executeRawUnsafe(`DROP FUNCTION IF EXISTS ${trigger()}()`);
}

describe("rule evaluation throws at the join", () => {
  it("the machine gets B5's 202 pending, the request is left unevaluated, and the sweep evaluates it later, once", async () => {
    const ruleId = await createRule(world, poolId, { expression: "true", action: { reject: { reason: "swept later" } } });
    const machine = await makeMachine();
    const first = await join(machine, token);
    expect(first.status, first.text).toBe(202);
    expect(first.body).toEqual({
      status: "pending",
      requestId: expect.stringMatching(/^jreq_/),
      expiresAt: expect.any(String),
      reasons: ["unknown-to-discovery"],
    });
    const requestId = first.body.requestId as string;
    expect(await storedRequest(requestId)).toMatchObject({ state: "pending", rulesEvaluatedAt: null, decidedBy: null });
    expect(await eventTypesOf(requestId)).toEqual(["security.join-request.created"]);
    // the server's stderr reaches its log file through a pipe: give it a moment
    await expect
      .poll(() => readFile(inject("serverLogFile"), "utf8"), { timeout: 5_000 })
      .toMatch(new RegExp(`approval rules did not run; the sweep will run them.*${requestId}.*injected: rule evaluation fails`));

    const retry = await join(machine, token); // the daemon retries: still the same pending request
    expect(retry.status, retry.text).toBe(202);
    expect(retry.body.requestId).toBe(requestId);

    await removeFailure();
    const db = await getDb();
    // no grace: past the one the sweep leaves the join's own evaluation (ids made now, not a minute ahead: shared-process-guard.ts)
    const sweep = () => sweepUnevaluatedRequests({ db, now: new Date(), graceMs: 0 });
    // the shared database may hold other tests' unevaluated requests: sweep until this one is reached
    for (let pass = 0; pass < 10 && (await storedRequest(requestId)).rulesEvaluatedAt === null; pass++) await sweep();
    expect(await storedRequest(requestId)).toMatchObject({ state: "rejected", decidedBy: `rule:${ruleId}@1`, reason: "swept later" });
    await sweep();
    expect(await eventTypesOf(requestId)).toEqual(["security.join-request.created", "security.join-request.rejected"]);
    const rejected = await join(machine, token);
    expect(rejected.status, rejected.text).toBe(403);
  });
});
