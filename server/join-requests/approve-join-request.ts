import "server-only";
import type { Db } from "../db/client";
import type { PoolFacts } from "../places/find-pool";
import { ApiError } from "../api/errors";
import { decideApproval } from "@/lib/join-requests/state-machine";
import { requireProvenTpm } from "@/lib/join-requests/tpm-requirement";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { toJoinRequestJson } from "./join-request-json";
import { transitionJoinRequest } from "./transition-join-request";
import type { TransitionChanges } from "./transition-statement";
import type { EventData } from "../events/write-event";

/**
 * Approves a pending request for `pool` with a new expiry of `ttlSeconds`
 * (claiming it if it was an unclaimed site request). An approval already
 * made for this pool is returned as stored: no new expiry, no event. A pool
 * that requires TPM takes only a request whose EK was proven (SPEC G2): the
 * decision refuses it, and the update itself re-checks the pool (intoPool).
 */
export async function approveJoinRequest(input: {
  db: Db;
  pool: PoolFacts;
  requestId: string;
  ttlSeconds: number;
  reason?: string;
  actor: string;
  now: Date;
}): Promise<JoinRequestJson> {
  const { pool, now } = input;
  const writes = approvalWrites(input);
  const { request } = await transitionJoinRequest({
    ...input,
    precheck: () => {
      if (pool.archivedAt) throw new ApiError("INVALID_STATE", `pool ${pool.id} is archived; it cannot approve joins`);
    },
    decide: (current) => requireProvenTpm(decideApproval(current, pool.id, now), pool, current),
    changes: () => writes.changes,
    intoPool: pool.id,
    event: () => writes.event,
  });
  return toJoinRequestJson(request, now);
}

/** What an approval writes: the request's new state and expiry, and its event. */
export function approvalWrites(input: { pool: Pick<PoolFacts, "id">; ttlSeconds: number; reason?: string; actor: string; now: Date }): {
  changes: TransitionChanges;
  event: { type: "security.join-request.approved"; data: EventData };
} {
  const { pool, now } = input;
  const expiresAt = new Date(now.getTime() + input.ttlSeconds * 1000);
  return {
    changes: { state: "approved", poolId: pool.id, expiresAt, decidedAt: now, decidedBy: input.actor, reason: input.reason ?? null },
    event: {
      type: "security.join-request.approved",
      data: { expiresAt: expiresAt.toISOString(), ...(input.reason ? { reason: input.reason } : {}) },
    },
  };
}
