"use client";
import { startTransition, useOptimistic } from "react";
import styles from "./queue-checkbox-filter.module.css";

/**
 * A queue filter that is on or off, beside the state filter: the choice goes
 * into the URL (`search` says the query it becomes) by history.pushState, as
 * the state filter does (state-filter.tsx says why); it stays checked while
 * the URL catches up, and follows the URL when that moves by itself (Back).
 */
export function QueueCheckboxFilter({ label, on, search }: { label: string; on: boolean; search: (next: boolean) => string }) {
  const [checked, check] = useOptimistic(on);
  return (
    <label className={styles.filter}>
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => {
          const next = event.target.checked;
          startTransition(() => {
            check(next);
            history.pushState(null, "", search(next));
          });
        }}
      />
      {label}
    </label>
  );
}
