"use client";
import { NavLink } from "@/components/ui/nav-link";
import { lazy, Suspense, useState } from "react";
import { useJoinRequestsInfiniteQuery } from "@/data/join-requests/join-requests-infinite-query";
import type { BulkDecision } from "@/data/join-requests/decide-join-requests-mutation";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { QueueEmpty, QueueError, QueueSkeleton } from "./queue-states";
import { RequestsTable, type RowAction } from "./requests-table";
import { StateFilterLinks } from "./state-filter";
import { useQueueUrlState } from "./queue-url-state";
import type { QueuePool } from "./queue-pool";
import styles from "./queue.module.css";

// The dialogs (Radix, zod and the shared schemas, the toasts) load when first
// opened, keeping them out of the queue's first load.
const ApproveDialog = lazy(() => import("./approve-dialog").then((m) => ({ default: m.ApproveDialog })));
const RejectDialog = lazy(() => import("./reject-dialog").then((m) => ({ default: m.RejectDialog })));
const BulkDecisionDialog = lazy(() => import("./bulk-decision-dialog").then((m) => ({ default: m.BulkDecisionDialog })));

// The bulk dialog keeps the rows it was opened with: its results outlive the selection.
type OpenDialog = RowAction | { kind: "bulk"; decision: BulkDecision; requests: JoinRequestJson[] } | null;

export function JoinRequestQueue({ pool }: { pool: QueuePool }) {
  const { state, cursor } = useQueueUrlState();
  const query = useJoinRequestsInfiniteQuery({ tenantId: pool.tenantId, poolId: pool.id, state, cursor });
  const [selection, setSelection] = useState<{ key: string; ids: ReadonlySet<string> }>({ key: "", ids: new Set() });
  const [dialog, setDialog] = useState<OpenDialog>(null);

  const requests = query.data?.pages.flatMap((page) => page.joinRequests) ?? [];
  // Selection belongs to one view, and only to rows still pending in it.
  const viewKey = `${state}:${cursor ?? ""}`;
  const pendingIds = new Set(requests.filter((request) => request.state === "pending").map((request) => request.id));
  const selected = new Set(selection.key === viewKey ? [...selection.ids].filter((id) => pendingIds.has(id)) : []);
  const setSelected = (ids: Iterable<string>) => setSelection({ key: viewKey, ids: new Set(ids) });
  const selectedRequests = requests.filter((request) => selected.has(request.id));

  return (
    <>
      <div className={styles.toolbar}>
        <StateFilterLinks poolId={pool.id} current={state} />
        <span className={styles.live} aria-live="polite">
          <span className={styles.dot} aria-hidden="true" />
          {query.isFetching && !query.isFetchingNextPage ? "Refreshing…" : "Live: refreshes every 5 s"}
        </span>
      </div>

      {cursor ? (
        <p className={styles.notice}>
          Showing requests after <code>{cursor}</code>.{" "}
          <NavLink href={`/pools/${encodeURIComponent(pool.id)}?state=${state}`}>Show from the oldest</NavLink>
        </p>
      ) : null}

      {pool.canDecide && selected.size > 0 ? (
        <div className={styles.bulkBar} role="region" aria-label="Bulk actions" data-testid="bulk-bar">
          <strong>{selected.size} selected</strong>
          {pool.archived ? null : (
            <button type="button" className="button button-small button-primary" onClick={() => setDialog({ kind: "bulk", decision: "approve", requests: selectedRequests })}>
              Approve selected
            </button>
          )}
          <button type="button" className="button button-small" onClick={() => setDialog({ kind: "bulk", decision: "reject", requests: selectedRequests })}>
            Reject selected
          </button>
          <button type="button" className="button button-small button-ghost" onClick={() => setSelected([])}>
            Clear selection
          </button>
        </div>
      ) : null}

      {query.isPending ? (
        <QueueSkeleton />
      ) : query.isError ? (
        <QueueError error={query.error} onRetry={() => query.refetch()} />
      ) : requests.length === 0 ? (
        <QueueEmpty state={state} />
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
          {query.hasNextPage ? (
            <div className={styles.more}>
              <button type="button" className="button" disabled={query.isFetchingNextPage} onClick={() => query.fetchNextPage()}>
                {query.isFetchingNextPage ? "Loading…" : "Load more"}
              </button>
            </div>
          ) : null}
        </>
      )}

      <Suspense fallback={null}>
        {dialog?.kind === "approve" ? <ApproveDialog pool={pool} request={dialog.request} onClose={() => setDialog(null)} /> : null}
        {dialog?.kind === "reject" ? <RejectDialog pool={pool} request={dialog.request} onClose={() => setDialog(null)} /> : null}
        {dialog?.kind === "bulk" ? (
          <BulkDecisionDialog
            pool={pool}
            decision={dialog.decision}
            requests={dialog.requests}
            onClose={() => setDialog(null)}
            onDone={() => setSelected([])}
          />
        ) : null}
      </Suspense>
    </>
  );
}
