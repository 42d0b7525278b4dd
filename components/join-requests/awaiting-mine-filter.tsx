"use client";
import type { StateFilter } from "@/lib/validations/join-requests";
import { QueueCheckboxFilter } from "./queue-checkbox-filter";
import { queueFilterSearch } from "./queue-url-state";

/**
 * SPEC H1's "Needs my approval": hides the requests the signed-in principal
 * approved already (pages are filled from the list console-side, so pages
 * and cursors hold). In the URL beside the state (?awaiting=me); turning it
 * on turns "decided by a rule" off (pending requests have no decision).
 */
export function AwaitingMineFilter({ state, on }: { state: StateFilter; on: boolean }) {
  return <QueueCheckboxFilter label="Needs my approval" on={on} search={(next) => queueFilterSearch(state, next)} />;
}
