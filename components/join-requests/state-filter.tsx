"use client";
import { startTransition, useOptimistic } from "react";
import type { StateFilter } from "@/lib/validations/join-requests";
import { QUEUE_STATE_FILTERS, queueFilterSearch } from "./queue-url-state";
import choiceFilter from "@/components/ui/choice-filter.module.css";

/**
 * The state filter as a radio group (one choice of several, issue 15 item 2):
 * native radios, transparent over their labels, so the browser gives the group
 * its keyboard behaviour (Tab in, arrow keys move and choose) without script of
 * ours. A choice goes into the URL by history.pushState, which Next's
 * useSearchParams follows: linkable, survives a reload and Back, and no server
 * round trip or router in the queue's first load (its 150 kB budget).
 */
export function StateFilterRadios(props: { current: StateFilter; awaitingMine: boolean; decidedByRule: boolean }) {
  const { current, awaitingMine, decidedByRule } = props;
  // The URL reaches `current` in a transition (Next's router follows pushState);
  // until it has, the radio just chosen stays checked, where a controlled radio
  // would spring back to the old choice. When the URL moves by itself (Back),
  // the choice follows it.
  const [chosen, choose] = useOptimistic(current);
  return (
    <fieldset className={choiceFilter.filters} aria-label="Filter by state">
      {QUEUE_STATE_FILTERS.map((state) => (
        <label key={state} className={choiceFilter.filter}>
          <input
            type="radio"
            name="state"
            className={choiceFilter.radio}
            checked={state === chosen}
            onChange={() =>
              startTransition(() => {
                choose(state);
                history.pushState(null, "", queueFilterSearch(state, awaitingMine, decidedByRule)); // this page, without cursor or until
              })
            }
          />
          {state}
        </label>
      ))}
    </fieldset>
  );
}
