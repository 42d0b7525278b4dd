import "server-only";
import type { Db } from "../db/client";
import { recordNodeEvent } from "../events/record-node-event";
import { toNodeJson, type NodeJson } from "@/lib/nodes/node-json";
import { NODE_JSON_SELECT, type NodeJsonRow } from "./node-rows";
import { attestationReading } from "./attestation-reading";

/**
 * nodes/revoke (SPEC D1): one conditional update from active, with its
 * `compute.node.revoked` event in the same transaction. Of concurrent
 * revocations exactly one changes the row and writes the event; the others,
 * and any later call, return the node unchanged (idempotent). From then on
 * the node's JWTs are refused (D2); its history stays readable.
 */
export async function revokeNode(input: { db: Db; node: NodeJsonRow; reason?: string; actor: string; now: Date }): Promise<NodeJson> {
  const { db, node, reason, actor, now } = input;
  return db.$transaction(async (tx) => {
    const { count } = await tx.node.updateMany({
      where: { id: node.id, state: "active" },
      data: { state: "revoked", revokedAt: now, revokedBy: actor, revokeReason: reason ?? null },
    });
    if (count === 1) {
      await recordNodeEvent(tx, { type: "compute.node.revoked", node, actor, now, data: { reason: reason ?? null } });
    }
    const row = await tx.node.findUniqueOrThrow({ where: { id: node.id }, select: NODE_JSON_SELECT });
    return toNodeJson(row, await attestationReading(tx, node.poolId, now));
  });
}
