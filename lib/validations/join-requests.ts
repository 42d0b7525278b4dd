import { z } from "zod";
import {
  boundedInt,
  joinRequestIdField,
  optional,
  patternString,
  JOIN_REQUEST_ID_PATTERN,
  poolIdField,
  reasonField,
  tenantIdField,
  withDefault,
} from "./fields";

// One schema per published method input (SPEC Part A), used by the route,
// the console's dialogs and the client's types.

export const JOIN_REQUEST_STATES = ["pending", "approved", "rejected", "expired", "consumed"] as const;
export type JoinRequestState = (typeof JOIN_REQUEST_STATES)[number];
export const STATE_FILTERS = [...JOIN_REQUEST_STATES, "all"] as const;
export type StateFilter = (typeof STATE_FILTERS)[number];

export const TTL_MIN_SECONDS = 60;
export const TTL_MAX_SECONDS = 86_400;
export const TTL_DEFAULT_SECONDS = 3_600;
export const REASON_MAX_CHARACTERS = 256;

const stateFilter = z.enum(STATE_FILTERS, {
  error: `must be one of ${STATE_FILTERS.join(", ")}`,
});

export const listJoinRequestsInput = z.strictObject({
  tenantId: tenantIdField,
  poolId: poolIdField,
  state: withDefault(stateFilter, "pending"),
  limit: withDefault(boundedInt(1, 200), 100),
  cursor: optional(patternString(64, JOIN_REQUEST_ID_PATTERN)),
});

export const approveJoinRequestInput = z.strictObject({
  tenantId: tenantIdField,
  poolId: poolIdField,
  requestId: joinRequestIdField,
  ttlSeconds: withDefault(boundedInt(TTL_MIN_SECONDS, TTL_MAX_SECONDS), TTL_DEFAULT_SECONDS),
  reason: optional(reasonField),
});

export const rejectJoinRequestInput = z.strictObject({
  tenantId: tenantIdField,
  poolId: poolIdField,
  requestId: joinRequestIdField,
  reason: optional(reasonField),
});

export type ListJoinRequestsInput = z.output<typeof listJoinRequestsInput>;
export type ApproveJoinRequestInput = z.output<typeof approveJoinRequestInput>;
export type RejectJoinRequestInput = z.output<typeof rejectJoinRequestInput>;
