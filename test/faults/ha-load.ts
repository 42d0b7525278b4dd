import { expect } from "vitest";
import { getDb } from "@/server/db/client";
import { csrSha256, joinBody, makeMachine, type JoinWorld, type Machine } from "../api/machine";
import type { TestNode } from "../api/node";
import { makeRequests } from "../api/world";
import { callUntilAnswered, inParallel, postMethod, type Answer, type Tally } from "./fault-harness";
import { reportInventoryAt } from "./ha-fault-setup";

// The HA fault test's load (issue 37): 16 clients approving, rejecting and
// joining, nodes reporting inventory, a fault a quarter of the way in; then
// the check that what the clients saw acknowledged is in the database once.

type Work =
  | { kind: "approve"; requestId: string }
  | { kind: "reject"; requestId: string }
  | { kind: "join"; machine: Machine }
  | { kind: "report"; node: TestNode };

export interface Load {
  work: Work[];
  approved: string[];
  rejected: string[];
  machines: Machine[];
}

export async function makeLoad(
  world: JoinWorld,
  counts: { approvals: number; rejections: number; joins: number; reports: TestNode[] },
): Promise<Load> {
  const approved = await makeRequests(world, counts.approvals, { poolId: world.pools.a });
  const rejected = await makeRequests(world, counts.rejections, { poolId: world.pools.a });
  const machines = await Promise.all(Array.from({ length: counts.joins }, () => makeMachine()));
  const queues: Work[][] = [
    approved.map((requestId) => ({ kind: "approve", requestId })),
    rejected.map((requestId) => ({ kind: "reject", requestId })),
    machines.map((machine) => ({ kind: "join", machine })),
    counts.reports.map((node) => ({ kind: "report", node })),
  ];
  const work: Work[] = [];
  while (queues.some((queue) => queue.length > 0)) for (const queue of queues) if (queue.length) work.push(queue.shift()!);
  return { work, approved, rejected, machines };
}

export interface Driven {
  answers: Answer[];
  /** seconds from the fault to the first 2xx of a call sent after it */
  secondsWithoutLeader: number;
}

/** Runs the load at 16 concurrent, calling `fault` as the quarter mark's call starts. */
export async function drive(baseUrl: string, world: JoinWorld, load: Load, tally: Tally, fault: () => void): Promise<Driven> {
  let faultAt = 0;
  let firstAnswer = 0;
  const timed = (call: () => Promise<Response>) => async () => {
    const sentAt = Date.now();
    const response = await call();
    if (faultAt && sentAt > faultAt && response.ok && !firstAnswer) firstAnswer = Date.now();
    return response;
  };
  const pool = { tenantId: world.tenantId, poolId: world.pools.a };
  const call = (item: Work): (() => Promise<Response>) => {
    if (item.kind === "approve")
      return postMethod(baseUrl, "joinRequests/approve", world.keys.admin, { ...pool, requestId: item.requestId, ttlSeconds: 3600 });
    if (item.kind === "reject")
      return postMethod(baseUrl, "joinRequests/reject", world.keys.admin, { ...pool, requestId: item.requestId, reason: "ha fault suite" });
    if (item.kind === "report") return reportInventoryAt(baseUrl, item.node);
    const body = JSON.stringify(joinBody(item.machine));
    return () =>
      fetch(`${baseUrl}/api/compute/nodes/join`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${world.tokens.a}` },
        body,
      });
  };
  const answers = await inParallel(load.work, 16, async (item, index) => {
    if (index === Math.floor(load.work.length / 4)) {
      faultAt = Date.now();
      fault();
    }
    return callUntilAnswered(tally, timed(call(item)));
  });
  return { answers, secondsWithoutLeader: (firstAnswer - faultAt) / 1000 };
}

const EXPECTED_STATUS: Record<Work["kind"], number[]> = { approve: [200], reject: [200], join: [202], report: [200, 429] };

/** No 500, 503s with Retry-After, every call ended as without the fault, each transition stored exactly once. Returns events checked. */
export async function expectEachOutcomeOnce(load: Load, driven: Driven, tally: Tally): Promise<number> {
  expect(tally.unavailable, "the fault happened while calls were in flight").toBeGreaterThan(0);
  expect(tally.statuses.get(500) ?? 0, "500s").toBe(0);
  expect(tally.unavailableWithoutRetryAfter, "503s without Retry-After").toBe(0);
  load.work.forEach((item, index) =>
    expect(EXPECTED_STATUS[item.kind], `${item.kind} ${driven.answers[index]!.text}`).toContain(driven.answers[index]!.status),
  );
  // a few queries for all of them, not two per request: the check runs through HAProxy on a loaded machine
  const db = await getDb();
  const decided = [...load.approved.map((id) => [id, "approved"] as const), ...load.rejected.map((id) => [id, "rejected"] as const)];
  const joins = new Map(load.machines.map((machine) => [csrSha256(machine.csr), machine.hostname]));
  const requests = await db.joinRequest.findMany({
    where: { OR: [{ id: { in: decided.map(([id]) => id) } }, { csrSha256: { in: [...joins.keys()] } }] },
    select: { id: true, state: true, csrSha256: true },
  });
  const events = await db.event.findMany({
    where: { requestId: { in: requests.map((request) => request.id) } },
    select: { requestId: true, type: true },
  });
  const typesOf = (requestId: string) => events.filter((event) => event.requestId === requestId).map((event) => event.type);
  for (const [requestId, outcome] of decided) {
    expect(requests.find((request) => request.id === requestId)?.state, requestId).toBe(outcome);
    expect(
      typesOf(requestId).filter((type) => /\.(approved|rejected)$/.test(type)),
      requestId,
    ).toEqual([expect.stringMatching(`\\.${outcome}$`)]);
  }
  for (const [csr, hostname] of joins) {
    const ofMachine = requests.filter((request) => request.csrSha256 === csr);
    expect(ofMachine, `one request for ${hostname}`).toHaveLength(1);
    expect(typesOf(ofMachine[0]!.id).filter((type) => type.endsWith(".created"))).toHaveLength(1);
  }
  const eventsChecked = events.length;
  const reporters = [...new Set(load.work.flatMap((item) => (item.kind === "report" ? [item.node.nodeId] : [])))];
  const stored = await (await getDb()).inventorySnapshot.groupBy({ by: ["nodeId"], where: { nodeId: { in: reporters } } });
  expect(stored, "every reporting node's inventory stored").toHaveLength(reporters.length);
  return eventsChecked;
}
