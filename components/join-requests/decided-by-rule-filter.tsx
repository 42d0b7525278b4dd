"use client";
import type { StateFilter } from "@/lib/validations/join-requests";
import { QueueCheckboxFilter } from "./queue-checkbox-filter";
import { queueFilterSearch } from "./queue-url-state";

/**
 * SPEC H2's "Decided by a rule": only the requests an enforced rule approved
 * or rejected (decidedBy `rule:<id>@<version>`), in the URL (?decided=rule).
 * Turned on under "pending" (which holds no decision) it moves to "all"; it
 * turns "Needs my approval" off, which asks for pending requests only.
 */
export function DecidedByRuleFilter({ state, on }: { state: StateFilter; on: boolean }) {
  return (
    <QueueCheckboxFilter
      label="Decided by a rule"
      on={on}
      search={(next) => queueFilterSearch(next && state === "pending" ? "all" : state, false, next)}
    />
  );
}
