import { z } from "zod";
import { eventJson } from "@/lib/events/event-json";
import { nextCursor } from "@/lib/wire/fields";

// What events/list answers (SPEC B6): ascending id.
export const listEventsResponse = z.strictObject({ events: z.array(eventJson), nextCursor });
