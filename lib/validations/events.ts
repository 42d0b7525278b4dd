import { z } from "zod";
import { boundedInt, EVENT_ID_PATTERN, joinRequestIdField, optional, patternString, poolIdField, tenantIdField, withDefault } from "./fields";

export const JOIN_REQUEST_EVENT_TYPES = [
  "security.join-request.created",
  "security.join-request.approved",
  "security.join-request.rejected",
  "security.join-request.consumed",
  "security.join-request.expired",
] as const;
export type JoinRequestEventType = (typeof JOIN_REQUEST_EVENT_TYPES)[number];

const eventType = z.enum(JOIN_REQUEST_EVENT_TYPES, {
  error: `must be one of ${JOIN_REQUEST_EVENT_TYPES.join(", ")}`,
});

export const listEventsInput = z.strictObject({
  tenantId: tenantIdField,
  poolId: poolIdField,
  types: optional(z.array(eventType, { error: "must be an array of event types" }).max(JOIN_REQUEST_EVENT_TYPES.length)),
  after: optional(patternString(64, EVENT_ID_PATTERN)),
  // Only this request's events (the console's timeline); still only those the pool may see.
  requestId: optional(joinRequestIdField),
  limit: withDefault(boundedInt(1, 200), 100),
});

export type ListEventsInput = z.output<typeof listEventsInput>;
