import { z } from "zod";
import {
  boundedInt,
  EVENT_ID_PATTERN,
  joinRequestIdField,
  optional,
  patternString,
  poolIdField,
  tenantIdField,
  withDefault,
} from "./fields";

export const JOIN_REQUEST_EVENT_TYPES = [
  "security.join-request.created",
  "security.join-request.approval-recorded",
  "security.join-request.approved",
  "security.join-request.rejected",
  "security.join-request.consumed",
  "security.join-request.expired",
  // SPEC H2: a rule matched without deciding (shadow, throttled, blocked, raised the count, or failed)
  "security.join-request.rule-matched",
  // a request still pending its pool's escalateAfterMinutes after it was made (docs/notifications.md), once
  "compute.join-request.escalated",
] as const;
export type JoinRequestEventType = (typeof JOIN_REQUEST_EVENT_TYPES)[number];

// Changes an operator or a tenant admin made (SPEC E1, E3): no request of their own.
export const ADMIN_EVENT_TYPES = [
  "compute.admin.changed",
  "compute.discovery.changed",
  "compute.tpm-allow-list.changed",
  "compute.tpm-trust-store.changed",
  // SPEC H2: a pool's approval rule created, updated, deleted or reordered
  "compute.approval-rule.changed",
] as const;
export type AdminEventType = (typeof ADMIN_EVENT_TYPES)[number];

// A node's life after the join (SPEC D3), and its attestation turning untrusted (SPEC I3).
export const NODE_EVENT_TYPES = [
  "compute.node.joined",
  "compute.node.inventory-changed",
  "compute.node.revoked",
  "compute.node.attestation-failed",
] as const;
export type NodeEventType = (typeof NODE_EVENT_TYPES)[number];

export const EVENT_TYPES = [...JOIN_REQUEST_EVENT_TYPES, ...ADMIN_EVENT_TYPES, ...NODE_EVENT_TYPES] as const;
export type EventType = (typeof EVENT_TYPES)[number];

const eventType = z.enum(EVENT_TYPES, {
  error: `must be one of ${EVENT_TYPES.join(", ")}`,
});

export const listEventsInput = z.strictObject({
  tenantId: tenantIdField,
  poolId: poolIdField,
  types: optional(z.array(eventType, { error: "must be an array of event types" }).max(EVENT_TYPES.length)),
  after: optional(patternString(64, EVENT_ID_PATTERN)),
  // Only this request's events (the console's timeline); still only those the pool may see.
  requestId: optional(joinRequestIdField),
  limit: withDefault(boundedInt(1, 200), 100),
});

export type ListEventsInput = z.output<typeof listEventsInput>;
