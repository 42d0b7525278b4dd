import { NavLink } from "@/components/ui/nav-link";
import { EVENT_TYPES } from "@/lib/validations/events";
import choiceFilter from "@/components/ui/choice-filter.module.css";
import { eventLogHref, shortType, type EventLogView } from "./event-log-url";

/** The type filter as links (the filter lives in the URL); choosing one starts from the first page. */
export function EventTypeFilter({ poolId, current }: { poolId: string; current: EventLogView["type"] }) {
  const options = [null, ...EVENT_TYPES];
  return (
    <nav className={choiceFilter.filters} aria-label="Filter by event type">
      {options.map((type) => (
        <NavLink
          key={type ?? "all"}
          href={eventLogHref(poolId, { type })}
          className={choiceFilter.filter}
          aria-current={type === current ? "page" : undefined}
          scroll={false}
        >
          {type ? shortType(type) : "all"}
        </NavLink>
      ))}
    </nav>
  );
}
