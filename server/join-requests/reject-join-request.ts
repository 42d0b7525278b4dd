import "server-only";
import type { Db } from "../db/client";
import type { PoolFacts } from "../places/find-pool";
import { decideRejection } from "@/lib/join-requests/state-machine";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { toJoinRequestJson } from "./join-request-json";
import { transitionJoinRequest, type TransitionSpec } from "./transition-join-request";
import type { EventData } from "../events/write-event";

/**
 * Rejects a pending request, or withdraws an approval the machine has not
 * used yet; an unclaimed site request is claimed by the rejecting pool.
 * Works on an archived pool: withdrawing approvals there must stay possible.
 * A request already rejected is returned unchanged, without an event.
 */
export async function rejectJoinRequest(input: {
  db: Db;
  pool: PoolFacts;
  requestId: string;
  reason?: string;
  actor: string;
  now: Date;
  /** SPEC H2: what a rule's rejection adds to the event (its ruleId) */
  eventData?: EventData;
  alsoInTransaction?: TransitionSpec["alsoInTransaction"];
}): Promise<JoinRequestJson> {
  const { pool, now } = input;
  const { request } = await transitionJoinRequest({
    ...input,
    decide: (current) => decideRejection(current, now),
    changes: () => ({
      state: "rejected",
      poolId: pool.id,
      decidedAt: now,
      decidedBy: input.actor,
      reason: input.reason ?? null,
    }),
    event: (transition) => ({
      type: "security.join-request.rejected",
      data: { previousState: transition.from, ...(input.reason ? { reason: input.reason } : {}), ...input.eventData },
    }),
  });
  return toJoinRequestJson(request, now);
}
