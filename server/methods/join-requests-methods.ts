import "server-only";
import { joinRequestJson } from "@/lib/join-requests/join-request-json";
import { listJoinRequestsResponse } from "@/lib/api/responses/join-requests";
import { approveJoinRequestInput, listJoinRequestsInput, rejectJoinRequestInput } from "@/lib/validations/join-requests";
import { listJoinRequests } from "../join-requests/list-join-requests";
import { approveJoinRequest } from "../join-requests/approve-join-request";
import { rejectJoinRequest } from "../join-requests/reject-join-request";
import { DECIDE_PERMISSION } from "../auth/roles";
import { definePoolMethod } from "./define-method";

// SPEC Part A: the published joinRequests methods.
const common = { resource: "compute-pool", phase: "v0.2", status: "registered", module: "server" } as const;

export const listJoinRequestsMethod = definePoolMethod({
  ...common,
  name: "joinRequests/list",
  responses: { 200: listJoinRequestsResponse },
  kind: "read",
  permission: "compute:join-tokens:read",
  summary: "Lists the join requests a pool can decide: its own, and its site's requests that no pool has claimed yet.",
  description:
    "`state` defaults to `pending`; `all` lists every state. A pending or approved request past its expiry reads as `expired`, " +
    "whether or not retention has marked it yet. Pages hold up to 200 requests (100 by default). A pool the tenant does not own is `NOT_FOUND`.",
  input: listJoinRequestsInput,
  handler: ({ db, pool, input, now }) => listJoinRequests({ db, pool, state: input.state, limit: input.limit, cursor: input.cursor, now }),
});

export const approveJoinRequestMethod = definePoolMethod({
  ...common,
  name: "joinRequests/approve",
  responses: { 200: joinRequestJson },
  kind: "mutation",
  permission: DECIDE_PERMISSION,
  summary:
    "Approves a pending join request, assigns it to the pool and returns it with a new expiry of `ttlSeconds` (60 to 86,400, one hour by default).",
  description:
    "Approving a request that is already approved for this pool returns the approval unchanged. Any other decided state (rejected, expired, " +
    "consumed) is `INVALID_STATE`, and so is an archived pool. A pool the tenant does not own, or a request the pool cannot see, is `NOT_FOUND`. " +
    "A request needing more approvals than it has (`approvalsRequired`, SPEC H1) records the caller's approval, stays `pending` and publishes " +
    "`security.join-request.approval-recorded`; a principal counts once (approving again returns the request unchanged). The last approval " +
    "needed approves it with the smallest `ttlSeconds` given, and the event lists every approval.",
  publishes: [{ type: "security.join-request.approved", carries: " with the new `expiresAt`" }],
  input: approveJoinRequestInput,
  handler: ({ db, pool, input, principal, now }) =>
    approveJoinRequest({
      db,
      pool,
      requestId: input.requestId,
      ttlSeconds: input.ttlSeconds,
      reason: input.reason,
      actor: principal.id,
      now,
    }),
});

export const rejectJoinRequestMethod = definePoolMethod({
  ...common,
  name: "joinRequests/reject",
  responses: { 200: joinRequestJson },
  kind: "mutation",
  permission: DECIDE_PERMISSION,
  summary: "Rejects a pending join request, or withdraws an approval the machine has not used yet, and returns the request.",
  description:
    "Rejecting a request that is already rejected returns it unchanged. An expired or consumed request is `INVALID_STATE`. " +
    "A later retry with the request's CSR fails.",
  publishes: [{ type: "security.join-request.rejected", carries: ", with `reason` when one is given" }],
  input: rejectJoinRequestInput,
  handler: ({ db, pool, input, principal, now }) =>
    rejectJoinRequest({ db, pool, requestId: input.requestId, reason: input.reason, actor: principal.id, now }),
});
