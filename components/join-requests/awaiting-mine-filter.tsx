"use client";
import { startTransition, useOptimistic } from "react";
import type { StateFilter } from "@/lib/validations/join-requests";
import { queueFilterSearch } from "./queue-url-state";
import styles from "./queue.module.css";

/**
 * SPEC H1's "Needs my approval": hides the requests the signed-in principal
 * approved already (the server filters, so pages and cursors hold). In the
 * URL beside the state (?awaiting=me), by history.pushState as the state
 * filter does, for the same reasons (state-filter.tsx).
 */
export function AwaitingMineFilter({ state, on }: { state: StateFilter; on: boolean }) {
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
            history.pushState(null, "", queueFilterSearch(state, next)); // "decided by a rule" (pending holds none) goes off
          });
        }}
      />
      Needs my approval
    </label>
  );
}
