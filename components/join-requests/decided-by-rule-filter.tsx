"use client";
import { startTransition, useOptimistic } from "react";
import type { StateFilter } from "@/lib/validations/join-requests";
import { queueFilterSearch } from "./queue-url-state";
import styles from "./queue.module.css";

/**
 * SPEC H2's "Decided by a rule": only the requests an enforced rule approved
 * or rejected (decidedBy `rule:<id>@<version>`). In the URL (?decided=rule)
 * by history.pushState as the other filters. Turned on under "pending" (which
 * holds no decision) it moves to "all"; it leaves "Needs my approval" off,
 * which asks for pending requests only.
 */
export function DecidedByRuleFilter({ state, on }: { state: StateFilter; on: boolean }) {
  const [checked, check] = useOptimistic(on);
  return (
    <label className={styles.awaitingMine}>
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => {
          const next = event.target.checked;
          startTransition(() => {
            check(next);
            history.pushState(null, "", queueFilterSearch(next && state === "pending" ? "all" : state, false, next));
          });
        }}
      />
      Decided by a rule
    </label>
  );
}
