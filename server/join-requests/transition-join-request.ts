import "server-only";
import type { Db, Tx } from "../db/client";
import type { JoinRequest, Prisma } from "../db/generated/client";
import type { PoolFacts } from "../pools/find-pool";
import { ApiError } from "../api/errors";
import { recordJoinRequestEvent, type EventData } from "../events/record-event";
import { isVisibleToPool, type Decision } from "@/lib/join-requests/state-machine";
import type { JoinRequestEventType } from "@/lib/validations/events";

type Transition = Extract<Decision, { kind: "transition" }>;

export interface TransitionSpec {
  db: Db;
  requestId: string;
  pool: PoolFacts;
  actor: string;
  now: Date;
  /** Checks that come after visibility and before the state (e.g. an archived pool). */
  precheck?: () => void;
  decide: (request: JoinRequest) => Decision;
  changes: (request: JoinRequest, transition: Transition) => Prisma.JoinRequestUpdateManyMutationInput;
  event: (transition: Transition) => { type: JoinRequestEventType; data?: EventData };
  /** More writes that commit or roll back with the transition (e.g. the node a consumption admits). */
  alsoInTransaction?: (tx: Tx, after: JoinRequest) => Promise<void>;
}

/**
 * Read → decide → one conditional update with its event, in one transaction.
 * The update only applies if the request is still exactly as it was read
 * (state, owner, unexpired); if another transition won the race, the request
 * is read again and decided anew, so every caller sees the state that won.
 * States only move forward, so this ends within a few rounds.
 */
export async function transitionJoinRequest(spec: TransitionSpec): Promise<{ request: JoinRequest; changed: boolean }> {
  const { db, requestId, pool, now } = spec;
  for (let round = 0; round < 5; round++) {
    const request = await db.joinRequest.findUnique({ where: { id: requestId } });
    if (!request || !isVisibleToPool(request, pool)) {
      throw new ApiError("NOT_FOUND", `join request ${requestId} not found in pool ${pool.id}`);
    }
    spec.precheck?.();
    const decision = spec.decide(request);
    if (decision.kind === "unchanged") return { request, changed: false };
    if (decision.kind === "refused") throw new ApiError("INVALID_STATE", decision.message);

    const updated = await db.$transaction(async (tx) => {
      const [after] = await tx.joinRequest.updateManyAndReturn({
        where: { id: requestId, state: decision.from, poolId: request.poolId, expiresAt: { gt: now } },
        data: spec.changes(request, decision),
      });
      if (!after) return null; // lost the race: read again
      await recordJoinRequestEvent(tx, { ...spec.event(decision), request: after, actor: spec.actor, now });
      await spec.alsoInTransaction?.(tx, after);
      return after;
    });
    if (updated) return { request: updated, changed: true };
  }
  throw new ApiError("UNAVAILABLE", `join request ${requestId} kept changing concurrently; try again`);
}
