import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { createRule } from "@/server/approval-rules/create-rule";
import { findRulePool } from "@/server/approval-rules/find-rule-pool";
import { hourOf } from "@/server/approval-rules/count-rule-approval";
import { createRuleInput } from "@/lib/approval-rules/rule-schemas";
import { createJoinTokenRow, createJoinWorld, joinBody, makeMachine, type JoinWorld } from "@/test/api/machine";
import { addPool, eventTypesOf } from "@/test/api/world";
import {
  callUntilAnswered,
  inParallel,
  killEveryProcess,
  killableApp,
  type KillableApp,
  postMethod,
  startFaultDatabase,
  Tally,
  type FaultDatabase,
} from "@/test/faults/fault-harness";

// Issue 35 / SPEC H2: rules run right after the join's commit. SIGKILL for
// every app process while deferred joins (16 at once) sit exactly there — committed,
// their rules' transaction waiting on the rule's hourly count, which this test
// holds locked — then a restart with the workers on: the clients' retries get
// the same 202, the sweep evaluates the orphaned requests, and each request of
// the pool ends approved by the rule once, with one rule-matched (shadow) each.
let database: FaultDatabase;
let world: JoinWorld;
let app: KillableApp;

beforeAll(async () => {
  database = await startFaultDatabase();
  world = await createJoinWorld();
  // the workers on: the rules sweep is what picks the orphaned requests up; each process runs
  // BC_JOIN_CONCURRENCY joins at a time, rules included: 8 × 2 processes hold all 16 callers
  const env = { BC_WORKERS: "on", BC_DB_POOL_MAX: "32", BC_JOIN_CONCURRENCY: String(AT_ONCE / 2) };
  app = await killableApp(database, "test-results/faults-rules-evaluation-killed.log", env);
}, 180_000);
afterAll(async () => {
  await app?.stopAll();
  await database?.cluster.stop();
});

async function ruleIn(poolId: string, spec: Record<string, unknown>): Promise<string> {
  const db = await getDb();
  const pool = await findRulePool(db, poolId, world.tenantId);
  const rule = createRuleInput.parse({ tenantId: world.tenantId, poolId, ...spec });
  return (await createRule({ db, pool, rule, actor: "fault-suite", now: new Date() })).id;
}

/** Until `read` has answered the same positive number for `steadyMs`: that number. */
async function steady(read: () => Promise<number>, steadyMs: number, timeoutMs: number): Promise<number> {
  const giveUpAt = Date.now() + timeoutMs;
  let last = -1;
  let since = Date.now();
  for (;;) {
    const value = await read();
    if (value !== last) [last, since] = [value, Date.now()];
    else if (value > 0 && Date.now() - since >= steadyMs) return value;
    if (Date.now() > giveUpAt) throw new Error(`no steady count in ${timeoutMs} ms (last ${last})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Requests of the pool whose join committed but whose rules have not run. */
async function unevaluated(poolId: string): Promise<number> {
  return (await getDb()).joinRequest.count({ where: { poolId, state: "pending", rulesEvaluatedAt: null } });
}

const JOINS = 64;
const AT_ONCE = 16;

it("SIGKILL between joins' commit and their rules (16 at once), restart: every request evaluated once by the sweep, no 500", async () => {
  const poolId = await addPool(world);
  const token = await createJoinTokenRow(world.tenantId, poolId);
  const shadowId = await ruleIn(poolId, { name: "watch", expression: "true", action: { approve: {} }, mode: "shadow", maxPerHour: 10_000 });
  const ruleId = await ruleIn(poolId, { name: "rack", expression: "true", action: { approve: {} }, mode: "enforce", maxPerHour: 10_000 });
  // The approval's count row, locked: every evaluation blocks after its join committed (this hour and the next, should the test cross one).
  const db = await getDb();
  const hours = [hourOf(new Date()), hourOf(new Date(Date.now() + 3_600_000))];
  await db.approvalRuleHour.createMany({ data: hours.map((hour) => ({ ruleId, hour, approvals: 0 })) });
  const holder = new pg.Client({ connectionString: database.cluster.url });
  await holder.connect();
  await holder.query("BEGIN");
  await holder.query("SELECT * FROM approval_rule_hours WHERE rule_id = $1 FOR UPDATE", [ruleId]);

  const machines = await Promise.all(Array.from({ length: JOINS }, () => makeMachine()));
  const tally = new Tally("app killed between deferral and rules");
  let baseUrl = (await app.start()).baseUrl;
  const answers = inParallel(machines, AT_ONCE, (machine) =>
    callUntilAnswered(tally, () => postMethod(baseUrl, "nodes/join", token, joinBody(machine))()),
  );
  // the joins in their turns committed and wait on the count (no more come in): kill everything there
  // at least one process's 8 turns all hold a blocked evaluation (more if the callers spread over both); then no more come in
  await expect.poll(() => unevaluated(poolId), { timeout: 90_000, interval: 200 }).toBeGreaterThanOrEqual(AT_ONCE / 2);
  await steady(() => unevaluated(poolId), 2_000, 60_000);
  killEveryProcess(app.latest());
  await holder.query("ROLLBACK");
  await holder.end();
  const orphaned = await unevaluated(poolId);
  baseUrl = (await app.start()).baseUrl;
  const answered = await answers;

  expect(orphaned, "requests committed whose rules never ran").toBeGreaterThanOrEqual(AT_ONCE / 2);
  expect(tally.connectionErrors, "calls in flight when the processes died").toBeGreaterThan(0);
  expect(tally.statuses.get(500) ?? 0, "500s").toBe(0);
  expect(tally.unavailableWithoutRetryAfter, "503s without Retry-After").toBe(0);
  answered.forEach((answer) => expect(answer.status, answer.text).toBe(202)); // B5: the rules' decision shows on a later retry
  // the sweep (every 15 s, for requests older than its 30 s grace) evaluates the orphans
  await expect.poll(() => unevaluated(poolId), { timeout: 120_000, interval: 1_000 }).toBe(0);

  const requests = await db.joinRequest.findMany({
    where: { tenantId: world.tenantId, hostname: { in: machines.map((m) => m.hostname) } },
  });
  expect(requests).toHaveLength(JOINS);
  for (const request of requests) {
    expect(request, request.id).toMatchObject({ poolId, state: "approved", decidedBy: `rule:${ruleId}@1` });
    expect(request.rulesEvaluatedAt, request.id).not.toBeNull();
    const types = await eventTypesOf(request.id);
    expect(
      types.filter((type) => type.endsWith(".approved")),
      request.id,
    ).toHaveLength(1);
    expect(
      types.filter((type) => type.endsWith(".rule-matched")),
      request.id,
    ).toHaveLength(1);
  }
  const matched = await db.event.findMany({
    where: { requestId: { in: requests.map((r) => r.id) }, type: "security.join-request.rule-matched" },
  });
  expect(new Set(matched.map((event) => (event.data as { ruleId: string }).ruleId))).toEqual(new Set([shadowId]));
  expect(await db.joinRequest.count({ where: { state: "pending", rulesEvaluatedAt: null } }), "unevaluated anywhere").toBe(0);
  tally.print({ joins: JOINS, orphaned, approvedByRule: requests.length });
}, 240_000);
