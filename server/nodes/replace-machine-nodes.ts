import "server-only";
import type { Db, Tx } from "../db/client";
import { ApiError } from "../api/errors";
import { recordNodeEvent } from "../events/record-node-event";
import type { JoinRequestReason } from "@/lib/join-requests/join-request-json";
import { hostnameKeyOf, uuidKeyOf } from "../attestation/attestors/node-identity-keys";
import { activeUuidHoldersSql, activeNodeWithHostnameSql, activeNodeWithUuidSql } from "../attestation/attestors/active-nodes";

// The consumption of an approval for a machine that already has an active node
// (SPEC F2) replaces it only when a person approved exactly that: the request
// was deferred machine-already-joined (G7). An approval given for another
// reason (a placeholder serial, say) is stale once the machine has joined
// since: it is 409 naming the live node, and nothing changes. Its hostname is
// checked again (F3): a name taken since the approval by another machine is 409.

const REPLACES: JoinRequestReason = "machine-already-joined";

type MachineRequest = { tenantId: string; systemUuid: string; reasons: string[] };

/**
 * SPEC G7: 409 when an active node holds the machine's UUID and the request
 * was not deferred for it. Read before the consuming transaction, and again
 * inside it under the machine's lock (revokeReplacedNodes), where a node
 * admitted meanwhile makes the join read again and get this answer.
 */
export async function checkMachineReplaceable(db: Db | Tx, request: MachineRequest): Promise<void> {
  const uuidKey = uuidKeyOf(request.systemUuid);
  if (!uuidKey || request.reasons.includes(REPLACES)) return;
  const [holder] = await db.$queryRaw<{ id: string }[]>(activeNodeWithUuidSql(request.tenantId, uuidKey));
  if (holder) {
    throw new ApiError(
      "INVALID_STATE",
      `system UUID ${request.systemUuid} belongs to active node ${holder.id}, which joined after this request was deferred; ` +
        `the approval does not replace it: revoke ${holder.id} and join again`,
    );
  }
}

/** Read before the consuming transaction; a name taken between this and the insert is a unique violation, and the join reads again. */
export async function checkHostnameFree(db: Db, input: { tenantId: string; hostname: string; systemUuid: string }): Promise<void> {
  const uuidKey = uuidKeyOf(input.systemUuid);
  const [holder] = await db.$queryRaw<{ id: string }[]>(activeNodeWithHostnameSql(input.tenantId, hostnameKeyOf(input.hostname), uuidKey));
  if (holder) {
    throw new ApiError(
      "INVALID_STATE",
      `hostname ${input.hostname} belongs to active node ${holder.id}; revoke it or join under another name`,
    );
  }
}

/**
 * In the consuming transaction: revokes the machine's earlier active nodes,
 * each with its `compute.node.revoked` event, when the request was deferred
 * machine-already-joined; otherwise checks there is none (SPEC G7).
 */
export async function revokeReplacedNodes(
  tx: Tx,
  input: { request: MachineRequest; nodeId: string; actor: string; now: Date },
): Promise<void> {
  const { tenantId, systemUuid } = input.request;
  const uuidKey = uuidKeyOf(systemUuid);
  if (!uuidKey) return;
  // Concurrent consumptions for one machine take turns: each then revokes
  // what the one before it admitted, instead of losing on the unique index.
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`machine:${tenantId}:${uuidKey}`}))`;
  if (!input.request.reasons.includes(REPLACES)) {
    // Nothing to replace (G7), and never revoke here: a direct admission does
    // not take this lock, so one committed meanwhile is seen by this check,
    // one committing later loses on nodes_active_uuid_key.
    await checkMachineReplaceable(tx, input.request);
    return;
  }
  const reason = `replaced by ${input.nodeId}`;
  // in SQL, for the index (active-nodes.ts)
  const replaced = await tx.$queryRaw<{ id: string; tenantId: string; siteId: string; poolId: string }[]>`
    UPDATE nodes SET state = 'revoked', revoked_at = ${input.now}, revoked_by = ${input.actor}, revoke_reason = ${reason}
    WHERE ${activeUuidHoldersSql(tenantId, uuidKey)}
    RETURNING id, tenant_id AS "tenantId", site_id AS "siteId", pool_id AS "poolId"`;
  for (const node of replaced) {
    await recordNodeEvent(tx, { type: "compute.node.revoked", node, actor: input.actor, now: input.now, data: { reason } });
  }
}
