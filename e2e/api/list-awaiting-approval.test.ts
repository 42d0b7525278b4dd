import { beforeAll, describe, expect, it } from "vitest";
import { callMethod, expectError } from "@/test/api/api-client";
import { addPool, createServiceKey, createWorld, makeRequest, makeRequests, type World } from "@/test/api/world";

// SPEC H1, the console's "needs my approval": joinRequests/list's optional
// `awaitingApprovalFrom: "me"` keeps the pending requests the caller has not
// approved yet, in the statement itself, so pages and cursors stay right.
let world: World;
let poolId: string;
let me: string;
let colleague: string;
beforeAll(async () => {
  world = await createWorld();
  const tenantAdmin = await createServiceKey(world.tenantId, [{ tenantId: world.tenantId, poolId: null, role: "tenant_admin" }]);
  poolId = await addPool(world);
  const set = await callMethod("pools/update", { tenantId: world.tenantId, poolId, approvalsRequired: 3 }, { bearer: tenantAdmin });
  expect(set.status, set.text).toBe(200);
  const admin = () => createServiceKey(world.tenantId, [{ tenantId: world.tenantId, poolId: null, role: "pool_admin" }]);
  [me, colleague] = [await admin(), await admin()];
});

const list = (bearer: string, body: Record<string, unknown> = {}) =>
  callMethod("joinRequests/list", { tenantId: world.tenantId, poolId, awaitingApprovalFrom: "me", ...body }, { bearer });

const approve = (requestId: string, bearer: string) =>
  callMethod("joinRequests/approve", { tenantId: world.tenantId, poolId, requestId }, { bearer });

const ids = (response: { body: { joinRequests: { id: string }[] } }) => response.body.joinRequests.map((request) => request.id);

describe("joinRequests/list awaitingApprovalFrom: me", () => {
  it("leaves out what the caller approved, keeps what others approved, and leaves out what is no longer pending", async () => {
    const [mineApproved, othersApproved, untouched, rejected] = await makeRequests(world, 4, { poolId });
    expect((await approve(mineApproved!, me)).body.state).toBe("pending");
    expect((await approve(othersApproved!, colleague)).body.state).toBe("pending");
    await callMethod("joinRequests/reject", { tenantId: world.tenantId, poolId, requestId: rejected }, { bearer: colleague });

    const mine = await list(me, { state: "all" });
    expect(mine.status, mine.text).toBe(200);
    expect(ids(mine)).toEqual([othersApproved, untouched]);
    expect(ids(await list(colleague))).toEqual([mineApproved, untouched]);
    // without the field, Part A's list as before: every pending request
    expect(ids(await list(me, { awaitingApprovalFrom: null }))).toEqual([mineApproved, othersApproved, untouched]);
    // it narrows the state filter, never widens it
    expect(ids(await list(me, { state: "rejected" }))).toEqual([]);
  });

  it("pages stay full and cursors walk the filtered list where the caller approved every other request", async () => {
    const requests = await makeRequests(world, 6, { poolId });
    for (const id of requests.filter((_, index) => index % 2 === 0)) await approve(id, me);
    const first = await list(me, { limit: 2, cursor: requests[0] });
    expect(ids(first)).toEqual([requests[1], requests[3]]);
    expect(first.body.nextCursor).toBe(requests[3]);
    const second = await list(me, { limit: 2, cursor: first.body.nextCursor });
    expect(ids(second)).toEqual([requests[5]]);
    expect(second.body.nextCursor).toBeUndefined();
  });

  it("an unclaimed site request waits for everyone's approval", async () => {
    const site = await makeRequest(world, { poolId: null });
    expect(ids(await list(me, { limit: 200 }))).toContain(site);
  });

  it.each([["you"], [""], [true], [["me"]]])("refuses awaitingApprovalFrom %j with 400 naming the field", async (value) => {
    const response = await list(me, { awaitingApprovalFrom: value });
    expectError(response, 400, "INVALID_ARGUMENT");
    expect(response.body.error.details.map((detail: { field: string }) => detail.field)).toContain("awaitingApprovalFrom");
  });
});
