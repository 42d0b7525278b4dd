import { EVENT_ID_PATTERN } from "@/lib/validations/fields";
import { EVENT_TYPES, type EventType } from "@/lib/validations/events";

// The event log's URL state: ?type=<event type>&after=<event id cursor>, so a
// view can be linked and reloaded. Values that are not valid are ignored.

export interface EventLogView {
  type: EventType | null;
  after: string | null;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export function readEventLogView(params: Record<string, string | string[] | undefined>): EventLogView {
  const type = first(params.type);
  const after = first(params.after);
  return {
    type: (EVENT_TYPES as readonly string[]).includes(type ?? "") ? (type as EventType) : null,
    after: after && EVENT_ID_PATTERN.test(after) ? after : null,
  };
}

export function eventLogHref(poolId: string, view: Partial<EventLogView>): string {
  const query = new URLSearchParams();
  if (view.type) query.set("type", view.type);
  if (view.after) query.set("after", view.after);
  const search = query.toString();
  return `/pools/${encodeURIComponent(poolId)}/events${search ? `?${search}` : ""}`;
}

/** "security.join-request.approved" → "approved" */
export const shortType = (type: string) => type.replace(/^security\.join-request\./, "").replace(/^compute\./, "");
