"use client";
import { useSearchParams } from "next/navigation";
import type { StateFilter } from "@/lib/validations/join-requests";

// The queue's URL state (next-learn style): ?state=…&awaiting=me&decided=rule&cursor=…&until=…, so a
// view can be linked and survives a reload. `until` is the last row "Load
// more" brought in: the view loads pages until it has that row again (the
// queue is live, so a page count would shift while ids stay put).
//
// The filter values are listed here rather than imported because the schema
// module pulls zod (~30 kB gzipped) into the queue's first load; the type
// checks below keep this list equal to the schema's.
export const QUEUE_STATE_FILTERS = [
  "pending",
  "approved",
  "rejected",
  "expired",
  "consumed",
  "all",
] as const satisfies readonly StateFilter[];
type Missing = Exclude<StateFilter, (typeof QUEUE_STATE_FILTERS)[number]>;
const everyFilterListed: [Missing] extends [never] ? true : never = true;
void everyFilterListed;

export interface QueueUrlState {
  state: StateFilter;
  /** SPEC H1's "needs my approval" (?awaiting=me): only requests the signed-in principal has not approved */
  awaitingMine: boolean;
  /** SPEC H2's "decided by a rule" (?decided=rule): only requests a rule approved or rejected */
  decidedByRule: boolean;
  cursor: string | null;
  until: string | null;
}

/** The URL's filter (unknown values fall back to pending), cursor (the server validates it) and until. */
export function useQueueUrlState(): QueueUrlState {
  const params = useSearchParams();
  const state = params.get("state");
  return {
    state: (QUEUE_STATE_FILTERS as readonly string[]).includes(state ?? "") ? (state as StateFilter) : "pending",
    awaitingMine: params.get("awaiting") === "me",
    decidedByRule: params.get("decided") === "rule",
    cursor: requestIdParam(params.get("cursor")),
    until: requestIdParam(params.get("until")),
  };
}

function requestIdParam(value: string | null): string | null {
  return value?.startsWith("jreq_") ? value : null;
}

/** The query of a filter choice: the state, "needs my approval" and "decided by a rule" when on; no cursor or until (a new view starts at the oldest). */
export function queueFilterSearch(state: StateFilter, awaitingMine: boolean, decidedByRule = false): string {
  return `?state=${state}${awaitingMine ? "&awaiting=me" : ""}${decidedByRule ? "&decided=rule" : ""}`;
}
