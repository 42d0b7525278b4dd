import "server-only";
import {
  approveJoinRequestInput,
  listJoinRequestsInput,
  rejectJoinRequestInput,
} from "@/lib/validations/join-requests";
import { listJoinRequests } from "../join-requests/list-join-requests";
import { approveJoinRequest } from "../join-requests/approve-join-request";
import { rejectJoinRequest } from "../join-requests/reject-join-request";
import { defineMethod } from "./define-method";

// SPEC Part A: the published joinRequests methods.
const common = { resource: "compute-pool", phase: "v0.2", status: "registered", module: "server" } as const;

export const listJoinRequestsMethod = defineMethod({
  ...common,
  name: "joinRequests/list",
  kind: "read",
  permission: "compute:join-tokens:read",
  summary: "Lists the join requests a pool can decide: its own, and its site's unclaimed ones.",
  input: listJoinRequestsInput,
  handler: ({ db, pool, input, now }) =>
    listJoinRequests({ db, pool, state: input.state, limit: input.limit, cursor: input.cursor, now }),
});

export const approveJoinRequestMethod = defineMethod({
  ...common,
  name: "joinRequests/approve",
  kind: "mutation",
  permission: "compute:join-tokens:create",
  summary: "Approves a pending join request for the pool, with a new expiry of ttlSeconds.",
  input: approveJoinRequestInput,
  handler: ({ db, pool, input, principal, now }) =>
    approveJoinRequest({ db, pool, requestId: input.requestId, ttlSeconds: input.ttlSeconds, reason: input.reason, actor: principal.id, now }),
});

export const rejectJoinRequestMethod = defineMethod({
  ...common,
  name: "joinRequests/reject",
  kind: "mutation",
  permission: "compute:join-tokens:create",
  summary: "Rejects a pending join request, or withdraws an approval the machine has not used yet.",
  input: rejectJoinRequestInput,
  handler: ({ db, pool, input, principal, now }) =>
    rejectJoinRequest({ db, pool, requestId: input.requestId, reason: input.reason, actor: principal.id, now }),
});
