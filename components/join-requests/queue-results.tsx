"use client";
import { useState } from "react";
import { NavLink } from "@/components/ui/nav-link";
import type { JoinRequestsView } from "@/data/join-requests/join-requests-infinite-query";
import type { StateFilter } from "@/lib/validations/join-requests";
import { QueueDialogs, type OpenDialog } from "./queue-dialogs";
import { QueueEmpty, QueueError } from "./queue-states";
import { RequestsTable } from "./requests-table";
import type { QueuePool } from "./queue-pool";
import { rememberLoadedUntil } from "./remember-loaded-until";
import { queueFilterSearch } from "./queue-url-state";
import { useNewPendingAnnouncement } from "./use-new-pending-announcement";
import { useViewSelection } from "./use-view-selection";
import listPage from "@/components/ui/list-page.module.css";
import styles from "./queue.module.css";

/**
 * What the queue shows once its first fetch has answered: where a cursor
 * starts it, the bulk bar of the selected rows, then the error, the empty
 * state or the rows with "load more", and the dialog a row or the bulk bar
 * opened. join-request-queue.tsx loads it lazily (see there why).
 */
export function QueueResults(props: {
  pool: QueuePool;
  state: StateFilter;
  awaitingMine: boolean;
  decidedByRule: boolean;
  cursor: string | null;
  view: JoinRequestsView;
}) {
  const { pool } = props;
  const { query, requests, hasMore } = props.view;
  const viewKey = `${props.state}:${props.awaitingMine}:${props.decidedByRule}:${props.cursor ?? ""}`;
  const { pendingIds, selected, setSelected, selectedRequests } = useViewSelection(viewKey, requests);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const announcement = useNewPendingAnnouncement(
    requests,
    `${props.state}:${props.awaitingMine}:${props.decidedByRule}:${props.view.shown}`,
  );
  return (
    <>
      <p className="visually-hidden" role="status" data-testid="queue-announcement">
        {announcement}
      </p>
      {props.cursor ? (
        <p className={listPage.notice}>
          Showing requests after <code>{props.cursor}</code>.{" "}
          <NavLink href={`/pools/${encodeURIComponent(pool.id)}${queueFilterSearch(props.state, props.awaitingMine, props.decidedByRule)}`}>
            Show from the oldest
          </NavLink>
        </p>
      ) : null}
      {pool.canDecide && selected.size > 0 ? (
        <div className={styles.bulkBar} role="region" aria-label="Bulk actions" data-testid="bulk-bar">
          <strong>{selected.size} selected</strong>
          {pool.archived ? null : (
            <button
              type="button"
              className="button button-small button-primary"
              onClick={() => setDialog({ kind: "bulk", decision: "approve", requests: selectedRequests })}
            >
              Approve selected
            </button>
          )}
          <button
            type="button"
            className="button button-small"
            onClick={() => setDialog({ kind: "bulk", decision: "reject", requests: selectedRequests })}
          >
            Reject selected
          </button>
          <button type="button" className="button button-small button-ghost" onClick={() => setSelected([])}>
            Clear selection
          </button>
        </div>
      ) : null}

      {query.isError ? (
        <QueueError error={query.error} onRetry={() => query.refetch()} />
      ) : requests.length === 0 ? (
        <QueueEmpty state={props.state} awaitingMine={props.awaitingMine} decidedByRule={props.decidedByRule} />
      ) : (
        <>
          <RequestsTable
            pool={pool}
            requests={requests}
            selected={selected}
            onToggle={(id) => setSelected(selected.has(id) ? [...selected].filter((other) => other !== id) : [...selected, id])}
            onToggleAll={(select) => setSelected(select ? pendingIds : [])}
            onAction={setDialog}
          />
          {hasMore ? (
            <div className={listPage.more}>
              <button type="button" className="button" disabled={query.isFetchingNextPage} onClick={() => void loadMore(props.view)}>
                {query.isFetchingNextPage ? "Loading…" : "Load more"}
              </button>
            </div>
          ) : null}
        </>
      )}

      <QueueDialogs pool={pool} dialog={dialog} onClose={() => setDialog(null)} onBulkDone={() => setSelected([])} />
    </>
  );
}

/**
 * The next page: one the view has cached but does not show yet (after a
 * filter link back to this view), else a fetched one. The URL's `until`
 * then names its last row, so a reload or a shared link shows these rows.
 */
async function loadMore({ query, shown }: JoinRequestsView) {
  const cached = query.data?.pages ?? [];
  const pages = shown < cached.length ? cached.slice(0, shown + 1) : await fetchedPages(query);
  const last = pages.flatMap((page) => page.joinRequests).at(-1);
  if (last) rememberLoadedUntil(last.id);
}

async function fetchedPages(query: JoinRequestsView["query"]) {
  const result = await query.fetchNextPage();
  return result.isError ? [] : (result.data?.pages ?? []);
}
