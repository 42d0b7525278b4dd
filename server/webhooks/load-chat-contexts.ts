import "server-only";
import type { Db } from "../db/client";
import type { ChatContext } from "@/lib/webhooks/chat/chat-message";

interface ContextEvent {
  id: string;
  poolId: string | null;
  requestId: string | null;
  data: unknown;
}

const nodeIdOf = (data: unknown) =>
  data && typeof data === "object" && typeof (data as { nodeId?: unknown }).nodeId === "string"
    ? (data as { nodeId: string }).nodeId
    : null;

/**
 * What a chat message shows beyond the event's own data: the machine's
 * hostname and serial number (from its join request, or its node) and the
 * pool's name, read as they are now, in three queries for a whole batch.
 * Events of standard subscriptions never come here: their body is the event.
 */
export async function loadChatContexts(db: Db, events: readonly ContextEvent[]): Promise<Map<string, ChatContext>> {
  const requestIds = [...new Set(events.flatMap((event) => (event.requestId ? [event.requestId] : [])))];
  const nodeIds = [...new Set(events.flatMap((event) => nodeIdOf(event.data) ?? []))];
  const poolIds = [...new Set(events.flatMap((event) => (event.poolId ? [event.poolId] : [])))];
  const machine = { hostname: true, serialNumber: true } as const;
  const [requests, nodes, pools] = await Promise.all([
    requestIds.length ? db.joinRequest.findMany({ where: { id: { in: requestIds } }, select: { id: true, ...machine } }) : [],
    nodeIds.length ? db.node.findMany({ where: { id: { in: nodeIds } }, select: { id: true, ...machine } }) : [],
    poolIds.length ? db.pool.findMany({ where: { id: { in: poolIds } }, select: { id: true, name: true } }) : [],
  ]);
  const requestById = new Map(requests.map((request) => [request.id, request]));
  const nodeById = new Map(nodes.map((node) => [node.id, node]));
  const poolNameById = new Map(pools.map((pool) => [pool.id, pool.name]));
  return new Map(
    events.map((event) => {
      const nodeId = nodeIdOf(event.data);
      const found = (nodeId ? nodeById.get(nodeId) : undefined) ?? (event.requestId ? requestById.get(event.requestId) : undefined);
      const context: ChatContext = {
        poolName: event.poolId ? (poolNameById.get(event.poolId) ?? null) : null,
        machine: found ? { hostname: found.hostname, serialNumber: found.serialNumber } : null,
      };
      return [event.id, context];
    }),
  );
}
