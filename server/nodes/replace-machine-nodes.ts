import "server-only";
import type { Db, Tx } from "../db/client";
import { ApiError } from "../api/errors";
import { recordNodeEvent } from "../events/record-node-event";
import { hostnameKeyOf, uuidKeyOf } from "./node-identity-keys";

// The consumption of an approval for a machine that already has an active node
// (SPEC F2) replaces it: a person approved the new one. Its hostname is checked
// again (F3): a name taken since the approval by another machine is 409.

/** Read before the consuming transaction; a name taken between this and the insert is a unique violation, and the join reads again. */
export async function checkHostnameFree(db: Db, input: { tenantId: string; hostname: string; systemUuid: string }): Promise<void> {
  const uuidKey = uuidKeyOf(input.systemUuid);
  const holder = await db.node.findFirst({
    where: {
      tenantId: input.tenantId,
      state: "active",
      hostnameKey: hostnameKeyOf(input.hostname),
      // the machine's own earlier node gives its name up when it is replaced
      ...(uuidKey ? { OR: [{ uuidKey: null }, { uuidKey: { not: uuidKey } }] } : {}),
    },
    select: { id: true },
  });
  if (holder) {
    throw new ApiError(
      "INVALID_STATE",
      `hostname ${input.hostname} belongs to active node ${holder.id}; revoke it or join under another name`,
    );
  }
}

/** In the consuming transaction: revokes the machine's earlier active nodes, each with its `compute.node.revoked` event. */
export async function revokeReplacedNodes(
  tx: Tx,
  input: { tenantId: string; systemUuid: string; nodeId: string; actor: string; now: Date },
): Promise<void> {
  const uuidKey = uuidKeyOf(input.systemUuid);
  if (!uuidKey) return;
  // Concurrent consumptions for one machine take turns: each then revokes
  // what the one before it admitted, instead of losing on the unique index.
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`machine:${input.tenantId}:${uuidKey}`}))`;
  const reason = `replaced by ${input.nodeId}`;
  const replaced = await tx.node.updateManyAndReturn({
    where: { tenantId: input.tenantId, state: "active", uuidKey },
    data: { state: "revoked", revokedAt: input.now, revokedBy: input.actor, revokeReason: reason },
    select: { id: true, tenantId: true, siteId: true, poolId: true },
  });
  for (const node of replaced) {
    await recordNodeEvent(tx, { type: "compute.node.revoked", node, actor: input.actor, now: input.now, data: { reason } });
  }
}
