import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { createWorld, makeRequest } from "@/test/api/world";
import { loadChatContexts } from "./load-chat-contexts";

// What a chat message shows beyond the event, read from the request, the node and the pool.
describe("loadChatContexts", () => {
  it("a request's machine, a node's machine (the demo data's), the pool's name; nothing for what is gone", async () => {
    const db = await getDb();
    const world = await createWorld();
    await db.pool.update({ where: { id: world.pools.a }, data: { name: "GPU racks A" } });
    const requestId = await makeRequest(world, { poolId: world.pools.a });
    const request = await db.joinRequest.findUniqueOrThrow({ where: { id: requestId } });
    const node = await db.node.findFirstOrThrow({ orderBy: { id: "asc" } });

    const contexts = await loadChatContexts(db, [
      { id: "evt_request", poolId: world.pools.a, requestId, data: { requestId } },
      { id: "evt_node", poolId: node.poolId, requestId: null, data: { nodeId: node.id } },
      { id: "evt_gone", poolId: "no-such-pool", requestId: "jreq_gone", data: { nodeId: 7 } },
      { id: "evt_unclaimed", poolId: null, requestId, data: null },
    ]);

    expect(contexts.get("evt_request")).toEqual({
      poolName: "GPU racks A",
      machine: { hostname: request.hostname, serialNumber: request.serialNumber },
    });
    expect(contexts.get("evt_node")).toMatchObject({ machine: { hostname: node.hostname, serialNumber: node.serialNumber } });
    expect(contexts.get("evt_gone")).toEqual({ poolName: null, machine: null });
    expect(contexts.get("evt_unclaimed")).toEqual({
      poolName: null,
      machine: { hostname: request.hostname, serialNumber: request.serialNumber },
    });
  });
});
