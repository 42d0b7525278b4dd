import { z } from "zod";
import { EVENT_TYPES } from "@/lib/validations/events";
import { timestamp } from "@/lib/wire/fields";

// An event as events/list returns it and webhooks deliver it (SPEC B6).
export const eventJson = z.strictObject({
  id: z.string().startsWith("evt_"),
  type: z.enum(EVENT_TYPES),
  occurredAt: timestamp,
  tenantId: z.string(),
  data: z.record(z.string(), z.unknown()).meta({ description: "requestId, siteId, poolId, actor, … (or nodeId, … for node events)" }),
});
export type EventJson = z.infer<typeof eventJson>;
