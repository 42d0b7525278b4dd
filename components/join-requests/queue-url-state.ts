"use client";
import { useSearchParams } from "next/navigation";
import type { StateFilter } from "@/lib/validations/join-requests";

// The queue's URL state (next-learn style): ?state=…&cursor=…, so a view can
// be linked and survives a reload.
//
// The filter values are listed here rather than imported because the schema
// module pulls zod (~30 kB gzipped) into the queue's first load; the type
// checks below keep this list equal to the schema's.
export const QUEUE_STATE_FILTERS = ["pending", "approved", "rejected", "expired", "consumed", "all"] as const satisfies readonly StateFilter[];
type Missing = Exclude<StateFilter, (typeof QUEUE_STATE_FILTERS)[number]>;
const everyFilterListed: [Missing] extends [never] ? true : never = true;
void everyFilterListed;

/** The URL's filter (unknown values fall back to pending) and cursor (the server validates it). */
export function useQueueUrlState(): { state: StateFilter; cursor: string | null } {
  const params = useSearchParams();
  const state = params.get("state");
  const cursor = params.get("cursor");
  return {
    state: (QUEUE_STATE_FILTERS as readonly string[]).includes(state ?? "") ? (state as StateFilter) : "pending",
    cursor: cursor?.startsWith("jreq_") ? cursor : null,
  };
}
