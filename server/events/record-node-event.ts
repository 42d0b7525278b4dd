import "server-only";
import type { Tx } from "../db/client";
import { newId } from "@/lib/ids";
import type { NodeEventType } from "@/lib/validations/events";
import type { EventData } from "./record-event";

/** The node an event is about: it lands in its pool's events/list and webhooks. */
export interface EventNode {
  id: string;
  tenantId: string;
  siteId: string;
  poolId: string;
}

type NodeEvent = { type: NodeEventType; node: EventNode; actor: string; now: Date; data: EventData };

/** Writes a node's event in the caller's transaction (the outbox): it exists exactly when its change committed. */
export async function recordNodeEvent(tx: Tx, event: NodeEvent): Promise<void> {
  await tx.event.create({ data: nodeEventRow(event) });
}

/** A node event's row (also inserted in SQL by a statement that makes the node). */
export function nodeEventRow(event: NodeEvent) {
  const { node, now } = event;
  return {
    id: newId("evt", now.getTime()),
    type: event.type,
    occurredAt: now,
    tenantId: node.tenantId,
    siteId: node.siteId,
    poolId: node.poolId,
    requestId: null,
    data: { nodeId: node.id, siteId: node.siteId, poolId: node.poolId, actor: event.actor, ...event.data },
  };
}
