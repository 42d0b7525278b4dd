import "server-only";
import { joinTokenJson } from "@/lib/join-tokens/join-token-json";
import { createJoinTokenResponse, listJoinTokensResponse } from "@/lib/api/responses/join-tokens";
import { createJoinTokenInput, listJoinTokensInput, revokeJoinTokenInput } from "@/lib/validations/join-tokens";
import { createJoinToken } from "../join-tokens/create-join-token";
import { listJoinTokens } from "../join-tokens/list-join-tokens";
import { revokeJoinToken } from "../join-tokens/revoke-join-token";
import { definePoolMethod } from "./define-method";

// SPEC Part A "joinTokens": credentials that let a limited number of daemons
// join one pool for a limited time.
const common = { resource: "compute-pool", phase: "v0.2", status: "registered", module: "server" } as const;

export const createJoinTokenMethod = definePoolMethod({
  ...common,
  name: "joinTokens/create",
  responses: { 200: createJoinTokenResponse },
  kind: "mutation",
  permission: "compute:join-tokens:create",
  summary: "Creates a join token for the pool; the bearer bcjt_<id>.<secret> is returned once.",
  input: createJoinTokenInput,
  handler: ({ db, pool, input, principal, now }) =>
    createJoinToken({ db, pool, maxUses: input.maxUses, ttlSeconds: input.ttlSeconds, actor: principal.id, now }),
});

export const listJoinTokensMethod = definePoolMethod({
  ...common,
  name: "joinTokens/list",
  responses: { 200: listJoinTokensResponse },
  kind: "read",
  permission: "compute:join-tokens:read",
  summary: "Lists the pool's join tokens, newest first, without their secrets.",
  input: listJoinTokensInput,
  handler: ({ db, pool }) => listJoinTokens({ db, pool }),
});

export const revokeJoinTokenMethod = definePoolMethod({
  ...common,
  name: "joinTokens/revoke",
  responses: { 200: joinTokenJson },
  kind: "mutation",
  permission: "compute:join-tokens:create",
  summary: "Revokes a join token of the pool; revoking it again returns it unchanged.",
  input: revokeJoinTokenInput,
  handler: ({ db, pool, input, now }) => revokeJoinToken({ db, pool, tokenId: input.tokenId, now }),
});
