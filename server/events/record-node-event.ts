import "server-only";
import type { Tx } from "../db/client";
import type { NodeEventType } from "@/lib/validations/events";
import { eventRow, writeEvent, type EventData, type EventRow } from "./write-event";

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
  await writeEvent(tx, nodeEventRow(event));
}

/** A node event's row (also inserted in SQL by a statement that makes the node). */
export function nodeEventRow(event: NodeEvent): EventRow {
  const { node, now } = event;
  return eventRow({
    type: event.type,
    now,
    tenantId: node.tenantId,
    siteId: node.siteId,
    poolId: node.poolId,
    requestId: null,
    data: { nodeId: node.id, siteId: node.siteId, poolId: node.poolId, actor: event.actor, ...event.data },
  });
}
