import { NavLink } from "@/components/ui/nav-link";
import type { StateFilter } from "@/lib/validations/join-requests";
import { QUEUE_STATE_FILTERS } from "./queue-url-state";
import styles from "./queue.module.css";

/** The state filter as links, so the filter lives in the URL (linkable, survives reload). */
export function StateFilterLinks({ poolId, current }: { poolId: string; current: StateFilter }) {
  return (
    <nav className={styles.filters} aria-label="Filter by state">
      {QUEUE_STATE_FILTERS.map((state) => (
        <NavLink
          key={state}
          href={`/pools/${encodeURIComponent(poolId)}?state=${state}`}
          className={styles.filter}
          aria-current={state === current ? "page" : undefined}
          scroll={false}
        >
          {state}
        </NavLink>
      ))}
    </nav>
  );
}
