import "server-only";
import type { Tx } from "../db/client";
import { requestKey } from "@/lib/notifications/delivery-key";
import { isDigestMode } from "@/lib/notifications/digest-window";
import { addToDigest } from "./add-to-digest";
import { findPoolDeciders } from "./find-pool-deciders";
import { findUserModes } from "./find-user-modes";

/** The events that tell someone something: a request waits in a pool, or a request was decided. */
export const WAITING_EVENT_TYPES = ["security.join-request.created", "security.join-request.approval-recorded"] as const;
export const OUTCOME_EVENT_TYPES = [
  "security.join-request.approved",
  "security.join-request.rejected",
  "security.join-request.expired",
] as const;

export interface ScannedEvent {
  id: string;
  type: string;
  tenantId: string;
  requestId: string;
  actor: string | null;
}

interface RequestState {
  poolId: string | null;
  state: string;
  live: boolean;
  rulesRan: boolean;
}

/**
 * Makes the deliveries one event calls for, in the caller's transaction.
 * A request that waits in a pool (made there, or a site request claimed by
 * its first approval): each user who may decide the pool and has not approved
 * it, by their mode — at once, in their digest, or not at all. A decision
 * (approved, rejected, expired): each user who approved it, unless they made
 * that decision themselves or turned the pool's mail off. Returns false when
 * the event must be looked at again later (the request's approval rules have
 * not run yet, or a digest was being sent): the caller does not mark it.
 */
export async function notifyEvent(tx: Tx, event: ScannedEvent, now: Date): Promise<boolean> {
  const [request] = await tx.$queryRaw<RequestState[]>`
    SELECT pool_id AS "poolId", state::text AS state, expires_at > ${now} AS live, rules_evaluated_at IS NOT NULL AS "rulesRan"
    FROM join_requests WHERE id = ${event.requestId}`;
  if (!request || request.poolId === null) return true; // gone, or an unclaimed site request: no pool's deciders yet
  const approvers = (
    await tx.$queryRaw<{ principal: string }[]>`SELECT principal FROM join_request_approvals WHERE request_id = ${event.requestId}`
  ).map((row) => row.principal);
  const base = { tenantId: event.tenantId, poolId: request.poolId, requestId: event.requestId, eventId: event.id, now };

  if ((WAITING_EVENT_TYPES as readonly string[]).includes(event.type)) {
    if (request.state !== "pending" || !request.live) return true; // decided meanwhile: nothing waits
    if (!request.rulesRan) return false; // a rule may still decide it
    let complete = true;
    for (const decider of await findPoolDeciders(tx, { tenantId: event.tenantId, poolId: request.poolId })) {
      if (approvers.includes(decider.userId)) continue;
      if (decider.mode === "immediate")
        await insertDelivery(tx, { ...base, kind: "waiting", userId: decider.userId, email: decider.email });
      else if (isDigestMode(decider.mode)) {
        complete = (await addToDigest(tx, { ...base, userId: decider.userId, email: decider.email, mode: decider.mode })) && complete;
      }
    }
    return complete;
  }

  const told = approvers.filter((principal) => principal !== event.actor);
  for (const user of await findUserModes(tx, { poolId: request.poolId, userIds: told })) {
    if (user.mode !== "off") await insertDelivery(tx, { ...base, kind: "outcome", userId: user.userId, email: user.email });
  }
  return true;
}

async function insertDelivery(
  tx: Tx,
  input: {
    kind: "waiting" | "outcome";
    tenantId: string;
    poolId: string;
    requestId: string;
    eventId: string;
    userId: string;
    email: string;
    now: Date;
  },
): Promise<void> {
  const key = requestKey(input.kind, input.requestId, input.userId);
  await tx.$executeRaw`
    INSERT INTO notification_deliveries (delivery_key, kind, tenant_id, pool_id, user_id, email, request_id, event_id, next_attempt_at, created_at)
    VALUES (${key}, ${input.kind}::notification_kind, ${input.tenantId}, ${input.poolId}, ${input.userId}, ${input.email}, ${input.requestId},
      ${input.eventId}, ${input.now}, ${input.now})
    ON CONFLICT (delivery_key) DO NOTHING`;
}
