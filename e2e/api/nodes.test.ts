import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { x509 } from "@/server/pki/x509";
import { callMethod, expectError, principalOf } from "@/test/api/api-client";
import { createJoinWorld, join, makeMachine, type JoinWorld } from "@/test/api/machine";
import { admitNode, callAsNode, type TestNode } from "@/test/api/node";
import { createServiceKey } from "@/test/api/world";

// SPEC D1: nodes/list, nodes/get, nodes/revoke over HTTP, the B2 order on
// compute-node/{nodeId}, and the node events in the pool's events/list.
let world: JoinWorld;
let nodeA: TestNode;
let nodeB: TestNode;

beforeAll(async () => {
  world = await createJoinWorld();
  nodeA = await admitNode(world, world.tokens.a);
  nodeB = await admitNode(world, world.tokens.b);
});

const getNode = (nodeId: string, bearer = world.keys.admin, tenantId = world.tenantId) =>
  callMethod("nodes/get", { tenantId, nodeId }, { bearer });
const listNodes = (body: Record<string, unknown> = {}, bearer = world.keys.admin) =>
  callMethod("nodes/list", { tenantId: world.tenantId, poolId: world.pools.a, ...body }, { bearer });
const revoke = (nodeId: string, body: Record<string, unknown> = {}, bearer = world.keys.admin) =>
  callMethod("nodes/revoke", { tenantId: world.tenantId, nodeId, ...body }, { bearer });
const nodeEvents = async (nodeId: string, types?: string[]) => {
  const response = await callMethod(
    "events/list",
    { tenantId: world.tenantId, poolId: world.pools.a, limit: 200, types },
    { bearer: world.keys.admin },
  );
  expect(response.status).toBe(200);
  return (response.body.events as { type: string; data: Record<string, unknown> }[]).filter((event) => event.data.nodeId === nodeId);
};
const UNKNOWN_NODE = "node_01jz0000000000000000000000";

describe("nodes/get (D1)", () => {
  it("returns the published node: machine facts, the certificate's serial, validity and DER hash, no inventory yet", async () => {
    const response = await getNode(nodeA.nodeId);
    expect(response.status).toBe(200);
    const certificate = new x509.X509Certificate(nodeA.certificatePem);
    expect(response.body).toEqual({
      id: nodeA.nodeId,
      tenantId: world.tenantId,
      siteId: world.siteId,
      poolId: world.pools.a,
      hostname: nodeA.machine.hostname,
      machine: {
        hostname: nodeA.machine.hostname,
        systemUuid: nodeA.machine.systemUuid,
        serialNumber: nodeA.machine.serialNumber,
        macAddresses: nodeA.machine.macAddresses,
        tpmEkSha256: null,
        tpmEkProven: false,
      },
      joinRequestId: null,
      joinedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      state: "active",
      revokedAt: null,
      revokedBy: null,
      revokeReason: null,
      certificate: {
        serialNumber: certificate.serialNumber,
        notBefore: certificate.notBefore.toISOString(),
        notAfter: certificate.notAfter.toISOString(),
        sha256: createHash("sha256").update(Buffer.from(certificate.rawData)).digest("hex"),
      },
      lastSeenAt: null,
      inventory: null,
      attestation: null, // SPEC I3: never attested, in a pool that does not require it
    });
  });

  it("a consumed approval's node carries the request's id; its joined event says so", async () => {
    const machine = await makeMachine(); // unknown to discovery: deferred
    const deferred = await join(machine, world.tokens.a);
    expect(deferred.status).toBe(202);
    const approved = await callMethod(
      "joinRequests/approve",
      { tenantId: world.tenantId, poolId: world.pools.a, requestId: deferred.body.requestId },
      { bearer: world.keys.admin },
    );
    expect(approved.status).toBe(200);
    const admitted = await join(machine, world.tokens.a);
    expect(admitted.status).toBe(200);
    expect((await getNode(admitted.body.nodeId)).body.joinRequestId).toBe(deferred.body.requestId);
    const [joined] = await nodeEvents(admitted.body.nodeId, ["compute.node.joined"]);
    expect(joined?.data).toMatchObject({ nodeId: admitted.body.nodeId, joinRequestId: deferred.body.requestId, poolId: world.pools.a });
  });

  it("a direct admission publishes compute.node.joined with joinRequestId null, in the pool's events/list and its types filter", async () => {
    const events = await nodeEvents(nodeA.nodeId);
    expect(events.map((event) => event.type)).toEqual(["compute.node.joined"]);
    expect(events[0]!.data).toMatchObject({ nodeId: nodeA.nodeId, joinRequestId: null });
    expect(await nodeEvents(nodeA.nodeId, ["security.join-request.created"])).toEqual([]);
  });

  it("the B2 order: no covering grant → PERMISSION_DENIED whether or not the node exists", async () => {
    for (const nodeId of [nodeA.nodeId, UNKNOWN_NODE]) expectError(await getNode(nodeId, world.keys.noGrants), 403, "PERMISSION_DENIED");
    // a pool-scoped caller asking for a node outside its pool, or for one that does not exist
    expectError(await getNode(nodeB.nodeId, world.keys.poolAdminA), 403, "PERMISSION_DENIED");
    expectError(await getNode(UNKNOWN_NODE, world.keys.poolAdminA), 403, "PERMISSION_DENIED");
    expect((await getNode(nodeA.nodeId, world.keys.poolAdminA)).status).toBe(200);
    // a grant in another tenant covers nothing here
    expectError(await getNode(nodeA.nodeId, world.other.admin), 403, "PERMISSION_DENIED");
  });

  it("with a covering tenant-wide grant: an unknown node, or another tenant's, is NOT_FOUND", async () => {
    expectError(await getNode(UNKNOWN_NODE), 404, "NOT_FOUND");
    // this tenant's node, asked by the other tenant's admin under its own tenant
    expectError(await getNode(nodeA.nodeId, world.other.admin, world.other.tenantId), 404, "NOT_FOUND");
  });

  it("validation comes before authorization: a malformed nodeId is INVALID_ARGUMENT naming it", async () => {
    const response = await getNode("node_NOT-A-ULID", world.keys.noGrants);
    expectError(response, 400, "INVALID_ARGUMENT");
    expect(response.body.error.message).toMatch(/^nodeId /);
    expectError(
      await callMethod("nodes/get", { tenantId: world.tenantId, nodeId: nodeA.nodeId, extra: 1 }, { bearer: world.keys.admin }),
      400,
      "INVALID_ARGUMENT",
    );
    expectError(
      await callMethod("nodes/get", { tenantId: world.tenantId, nodeId: nodeA.nodeId }, { bearer: null }),
      401,
      "UNAUTHENTICATED",
    );
  });
});

describe("nodes/list (D1)", () => {
  it("a pool's active nodes in ascending id, for viewers too; another pool's are not there", async () => {
    const response = await listNodes({}, world.keys.viewer);
    expect(response.status).toBe(200);
    const ids = response.body.nodes.map((node: { id: string }) => node.id);
    expect(ids).toContain(nodeA.nodeId);
    expect(ids).not.toContain(nodeB.nodeId);
    expect(ids).toEqual([...ids].sort());
    expect(
      response.body.nodes.every((node: { state: string; poolId: string }) => node.state === "active" && node.poolId === world.pools.a),
    ).toBe(true);
    expect(response.body).not.toHaveProperty("nextCursor");
  });

  it("pages by cursor without gaps or repeats", async () => {
    await admitNode(world, world.tokens.a);
    const all = (await listNodes({ limit: 200 })).body.nodes.map((node: { id: string }) => node.id);
    expect(all.length).toBeGreaterThanOrEqual(3);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listNodes({ limit: 1, cursor });
      expect(page.status).toBe(200);
      seen.push(...page.body.nodes.map((node: { id: string }) => node.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all);
  });

  it("state revoked / all; bad input names the field; the pool is decided before it is looked up", async () => {
    const node = await admitNode(world, world.tokens.a);
    expect((await revoke(node.nodeId, { reason: "decommissioned" })).status).toBe(200);
    const ids = async (state: string) => (await listNodes({ state, limit: 200 })).body.nodes.map((item: { id: string }) => item.id);
    expect(await ids("active")).not.toContain(node.nodeId);
    expect(await ids("revoked")).toEqual([node.nodeId]);
    expect(await ids("all")).toEqual(expect.arrayContaining([node.nodeId, nodeA.nodeId]));

    const bad = await listNodes({ state: "gone" });
    expectError(bad, 400, "INVALID_ARGUMENT");
    expect(bad.body.error.message).toBe("state must be one of active, revoked, all");
    expectError(await listNodes({ limit: 201 }), 400, "INVALID_ARGUMENT");
    expectError(await listNodes({ cursor: "jreq_01jz0000000000000000000000" }), 400, "INVALID_ARGUMENT");
    expectError(await listNodes({ poolId: "no-such-pool" }, world.keys.noGrants), 403, "PERMISSION_DENIED");
    expectError(await listNodes({ poolId: "no-such-pool" }), 404, "NOT_FOUND");
    expectError(await listNodes({ poolId: world.pools.b }, world.keys.poolAdminA), 403, "PERMISSION_DENIED");
  });
});

describe("nodes/revoke (D1)", () => {
  it("records who, when and why, publishes compute.node.revoked once, and is idempotent", async () => {
    const node = await admitNode(world, world.tokens.a);
    const first = await revoke(node.nodeId, { reason: "disk failure" }, world.keys.poolAdminA);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      id: node.nodeId,
      state: "revoked",
      revokedBy: principalOf(world.keys.poolAdminA),
      revokeReason: "disk failure",
      revokedAt: expect.stringMatching(/^\d{4}-/),
    });
    const again = await revoke(node.nodeId, { reason: "another reason" });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const events = await nodeEvents(node.nodeId, ["compute.node.revoked"]);
    expect(events.map((event) => event.data)).toEqual([
      expect.objectContaining({ nodeId: node.nodeId, reason: "disk failure", actor: principalOf(world.keys.poolAdminA) }),
    ]);
  });

  it("20 concurrent revocations: all answer the revoked node, exactly one event", async () => {
    const node = await admitNode(world, world.tokens.a);
    const answers = await Promise.all(Array.from({ length: 20 }, () => revoke(node.nodeId, { reason: "race" })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((answer) => answer.body.revokedAt)).size).toBe(1);
    expect(await nodeEvents(node.nodeId, ["compute.node.revoked"])).toHaveLength(1);
  });

  it("needs compute:nodes:revoke: a viewer is PERMISSION_DENIED and the node stays active", async () => {
    expectError(await revoke(nodeA.nodeId, {}, world.keys.viewer), 403, "PERMISSION_DENIED");
    expectError(await revoke(nodeB.nodeId, {}, world.keys.poolAdminA), 403, "PERMISSION_DENIED");
    expect((await getNode(nodeA.nodeId)).body.state).toBe("active");
    const reason = await revoke(nodeA.nodeId, { reason: "a\u0007b" });
    expectError(reason, 400, "INVALID_ARGUMENT");
  });

  it("a tenant admin may revoke; the revoked node's credential is refused, its history stays readable", async () => {
    const tenantAdmin = await createServiceKey(world.tenantId, [{ tenantId: world.tenantId, poolId: null, role: "tenant_admin" }]);
    const node = await admitNode(world, world.tokens.a);
    const sections = { os: { name: "Ubuntu", version: "22.04", kernel: "5.15", arch: "x86_64" } };
    expect((await callAsNode("inventory/report", { sections }, node)).status).toBe(200);
    expect((await revoke(node.nodeId, {}, tenantAdmin)).status).toBe(200);
    expectError(await callAsNode("inventory/report", { sections }, node), 401, "UNAUTHENTICATED");
    const history = await callMethod("inventory/list", { tenantId: world.tenantId, nodeId: node.nodeId }, { bearer: world.keys.viewer });
    expect(history.status).toBe(200);
    expect(history.body.snapshots).toHaveLength(1);
  });
});
