import type { JoinRequestState } from "@/lib/validations/join-requests";

// The state machine of a join request, in one place.
//
//   pending ──approve──▶ approved ──machine retry──▶ consumed
//      │                    │
//      └──reject──▶ rejected ◀──reject (withdraw)──┘
//   pending / approved ──(expiresAt passes)──▶ expired
//   (retention marks it later with decideExpiry, and deletes decided requests)
//
// The machine's retry with a request's CSR (SPEC B5, decideRetry below):
// pending → wait; approved → consume (once); rejected → JOIN_REJECTED;
// consumed → INVALID_STATE; expired → start over as a new join.
//
// Stored `pending` or `approved` past its expiry *reads* as `expired`
// everywhere, whether or not retention has marked it yet (SPEC B1).

export interface StateFacts {
  state: JoinRequestState;
  expiresAt: Date;
}

/**
 * Stored states a request can expire from: a live request, until its expiry.
 * The SQL form of the rule (server/join-requests/effective-state-sql.ts)
 * reads this same list.
 */
export const EXPIRABLE_STATES = ["pending", "approved"] as const satisfies readonly JoinRequestState[];

/** How long a deferred join waits for a decision (SPEC B5). */
export const PENDING_TTL_SECONDS = 24 * 60 * 60;

export function effectiveState(request: StateFacts, now: Date): JoinRequestState {
  const live = (EXPIRABLE_STATES as readonly JoinRequestState[]).includes(request.state);
  return live && request.expiresAt.getTime() <= now.getTime() ? "expired" : request.state;
}

/** What a decision does to a request, decided from what was read. */
export type Decision =
  { kind: "transition"; from: "pending" | "approved"; to: JoinRequestState } | { kind: "unchanged" } | { kind: "refused"; message: string };

interface Ownership extends StateFacts {
  poolId: string | null;
}

export function decideApproval(request: Ownership, poolId: string, now: Date): Decision {
  const state = effectiveState(request, now);
  if (state === "pending") return { kind: "transition", from: "pending", to: "approved" };
  if (state === "approved" && request.poolId === poolId) return { kind: "unchanged" };
  return { kind: "refused", message: `join request is ${state}; only a pending request can be approved` };
}

export function decideRejection(request: StateFacts, now: Date): Decision {
  const state = effectiveState(request, now);
  if (state === "pending" || state === "approved") return { kind: "transition", from: state, to: "rejected" };
  if (state === "rejected") return { kind: "unchanged" };
  return {
    kind: "refused",
    message: `join request is ${state}; only a pending request or an unused approval can be rejected`,
  };
}

/** Decided (final) stored states; retention deletes these once old enough. */
export const DECIDED_STATES = ["rejected", "consumed", "expired"] as const satisfies readonly JoinRequestState[];

/**
 * Retention (or the machine's retry) marking a request whose expiry has
 * passed: a stored live request past expiry moves to `expired`; one already
 * marked is unchanged; a live or decided one is not expired.
 */
export function decideExpiry(request: StateFacts, now: Date): Decision {
  const state = effectiveState(request, now);
  if (state !== "expired") return { kind: "refused", message: `join request is ${state}; it has not expired` };
  if (request.state === "pending" || request.state === "approved") return { kind: "transition", from: request.state, to: "expired" };
  return { kind: "unchanged" };
}

/** A pool sees its own requests and its site's requests no pool has claimed. */
export function isVisibleToPool(
  request: { poolId: string | null; siteId: string; tenantId: string },
  pool: { id: string; siteId: string; tenantId: string },
): boolean {
  if (request.tenantId !== pool.tenantId) return false;
  return request.poolId === pool.id || (request.poolId === null && request.siteId === pool.siteId);
}

/**
 * The machine's retry with an approved request's CSR consumes the approval,
 * once. Other states answer the retry without a transition.
 */
export function decideConsumption(request: StateFacts, now: Date): Decision {
  const state = effectiveState(request, now);
  if (state === "approved") return { kind: "transition", from: "approved", to: "consumed" };
  return { kind: "refused", message: `join request is ${state}; only an approved request can be consumed` };
}

/** What the machine's retry with an existing request's CSR does (SPEC B5). */
export type RetryDecision =
  /** still pending: the same 202 */
  | { kind: "wait" }
  /** approved and unexpired: consume the approval (decideConsumption) and admit */
  | { kind: "consume" }
  | { kind: "refused"; code: "JOIN_REJECTED" | "INVALID_STATE"; message: string }
  /**
   * expired: a join like a first one; `markExpired` when the request is still
   * stored live, so it is marked `expired` (with its event) in the same
   * transaction that records the new one.
   */
  | { kind: "start-over"; markExpired: boolean };

export function decideRetry(request: StateFacts, now: Date): RetryDecision {
  const state = effectiveState(request, now);
  switch (state) {
    case "pending":
      return { kind: "wait" };
    case "approved":
      return { kind: "consume" };
    case "rejected":
      return { kind: "refused", code: "JOIN_REJECTED", message: "this machine's join request was rejected" };
    case "consumed":
      return {
        kind: "refused",
        code: "INVALID_STATE",
        message: "this CSR's approval was already used; make a new key pair and CSR to join again",
      };
    case "expired":
      return { kind: "start-over", markExpired: request.state !== "expired" };
  }
}
