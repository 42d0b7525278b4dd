import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { gpuServerInventory } from "@/lib/inventory/gpu-server-inventory";
import { signNodeToken } from "@/lib/node-credential/sign-node-token";
import { httpRequest, type ApiResponse } from "@/test/api/api-client";
import { createJoinWorld } from "@/test/api/machine";
import { admitNode, callAsNode } from "@/test/api/node";
import { createWorld, makeRequests, storedRequest } from "@/test/api/world";

// The benchmark's Next.js floor (server/bench-floor/serve-floor.ts) skips the
// published methods' input schemas, so a deployment must never serve it. The
// shared test server is started as a deployment is: BC_BENCH_FLOOR_TOKEN unset.
// (With it set, `npm run bench`'s smoke drives the floor and checks it answers
// byte for byte as the app does.)

const CASES: [string, Record<string, string>][] = [
  ["no x-bench-floor", {}],
  ["an x-bench-floor of the caller's choosing", { "x-bench-floor": "a".repeat(43) }],
  ["an empty x-bench-floor", { "x-bench-floor": "" }],
];

const throughFloor = (method: string, authorization: string, extra: Record<string, string>, body: unknown) =>
  httpRequest(`/api/compute/bench-floor/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization, ...extra },
    body: JSON.stringify(body),
  });

function expectDeploymentNotFound(method: string, response: ApiResponse): void {
  expect(response.status, `${method}: ${response.text}`).toBe(404);
  expect(response.body).toEqual({ error: { code: "NOT_FOUND", message: "not found" } });
  expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
}

describe("the Next.js floor in a deployment", () => {
  it.each(CASES)("%s: approve through the floor is a 404 and decides nothing", async (_case, extra) => {
    const world = await createWorld();
    const [requestId] = await makeRequests(world, 1, { poolId: world.pools.a });
    for (const method of ["joinRequests.approve", "joinRequests.list", "nope"]) {
      const body = { tenantId: world.tenantId, poolId: world.pools.a, requestId };
      expectDeploymentNotFound(method, await throughFloor(method, `Bearer ${world.keys.admin}`, extra, body));
    }
    expect((await storedRequest(requestId!)).state).toBe("pending");
  });

  it.each(CASES)("%s: a node's report and nodes/list through the floor are 404s; the report moves nothing", async (_case, extra) => {
    const world = await createJoinWorld();
    const node = await admitNode(world);
    const sections = gpuServerInventory(node.machine);
    const first = await callAsNode("inventory/report", { sections }, node);
    expect(first.status).toBe(200);
    // a minute old, so that a floor serving this unchanged report would move both
    const db = await getDb();
    const minutesAgo = new Date(Date.now() - 120_000);
    await db.node.update({ where: { id: node.nodeId }, data: { lastSeenAt: minutesAgo } });
    await db.inventorySnapshot.update({ where: { id: first.body.snapshotId }, data: { lastReportedAt: minutesAgo } });

    const token = await signNodeToken({ privateKeyPem: node.privateKeyPem, nodeId: node.nodeId, method: "inventory/report" });
    expectDeploymentNotFound("inventory.report", await throughFloor("inventory.report", `Bearer ${token}`, extra, { sections }));
    const changed = { sections: { ...sections, "rack-position": { row: "C" } } };
    expectDeploymentNotFound("inventory.report (changed)", await throughFloor("inventory.report", `Bearer ${token}`, extra, changed));
    const list = { tenantId: world.tenantId, poolId: world.pools.a };
    expectDeploymentNotFound("nodes.list", await throughFloor("nodes.list", `Bearer ${world.keys.admin}`, extra, list));

    expect((await db.node.findUniqueOrThrow({ where: { id: node.nodeId } })).lastSeenAt).toEqual(minutesAgo);
    const snapshots = await db.inventorySnapshot.findMany({ where: { nodeId: node.nodeId } });
    expect(snapshots.map((snapshot) => [snapshot.id, snapshot.lastReportedAt])).toEqual([[first.body.snapshotId, minutesAgo]]);
  });
});
