"use client";
import { lazy, Suspense, useEffect, useState } from "react";
import { useJoinRequestsInfiniteQuery } from "@/data/join-requests/join-requests-infinite-query";
import type { BulkDecision } from "@/data/join-requests/decide-join-requests-mutation";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { QueueSkeleton } from "./queue-skeleton";
import type { RowAction } from "./row-action";
import { StateFilterRadios } from "./state-filter";
import { AwaitingMineFilter } from "./awaiting-mine-filter";
import { DecidedByRuleFilter } from "./decided-by-rule-filter";
import { useQueueUrlState } from "./queue-url-state";
import type { QueuePool } from "./queue-pool";
import listPage from "@/components/ui/list-page.module.css";
import liveIndicator from "@/components/ui/live-indicator.module.css";

// The dialogs (Radix, zod and the shared schemas, the toasts) load when first
// opened, keeping them out of the queue's first load.
const ApproveDialog = lazy(() => import("./approve-dialog").then((m) => ({ default: m.ApproveDialog })));
const RejectDialog = lazy(() => import("./reject-dialog").then((m) => ({ default: m.RejectDialog })));
const BulkDecisionDialog = lazy(() => import("./bulk-decision-dialog").then((m) => ({ default: m.BulkDecisionDialog })));

// Rows exist only once the first fetch answers (the server renders the
// skeleton: its query has no data there), so what shows them (the bulk bar,
// the table with its badges and countdowns, the empty and error states) is
// not needed to paint or hydrate the page. The queue starts loading it on
// mount, beside that first fetch; the skeleton stays until both are in.
const loadResults = () => import("./queue-results");
const QueueResults = lazy(() => loadResults().then((m) => ({ default: m.QueueResults })));

// The bulk dialog keeps the rows it was opened with: its results outlive the selection.
type OpenDialog = RowAction | { kind: "bulk"; decision: BulkDecision; requests: JoinRequestJson[] } | null;

export function JoinRequestQueue({ pool }: { pool: QueuePool }) {
  const { state, awaitingMine, decidedByRule, cursor, until } = useQueueUrlState();
  const awaitingApprovalFrom = awaitingMine && pool.canDecide ? pool.me : null;
  const view = useJoinRequestsInfiniteQuery({
    tenantId: pool.tenantId,
    poolId: pool.id,
    state,
    awaitingApprovalFrom,
    decidedByRule,
    cursor,
    until,
  });
  const { query, requests } = view;
  const [selection, setSelection] = useState<{ key: string; ids: ReadonlySet<string> }>({ key: "", ids: new Set() });
  const [dialog, setDialog] = useState<OpenDialog>(null);
  useEffect(() => void loadResults(), []);

  // Selection belongs to one view, and only to rows still pending in it.
  const viewKey = `${state}:${awaitingMine}:${decidedByRule}:${cursor ?? ""}`;
  const pendingIds = new Set(requests.filter((request) => request.state === "pending").map((request) => request.id));
  const selected = new Set(selection.key === viewKey ? [...selection.ids].filter((id) => pendingIds.has(id)) : []);
  const setSelected = (ids: Iterable<string>) => setSelection({ key: viewKey, ids: new Set(ids) });
  const selectedRequests = requests.filter((request) => selected.has(request.id));

  return (
    <>
      <div className={listPage.toolbar}>
        <StateFilterRadios current={state} awaitingMine={awaitingMine} decidedByRule={decidedByRule} />
        {pool.canDecide ? <AwaitingMineFilter state={state} on={awaitingMine} /> : null}
        <DecidedByRuleFilter state={state} on={decidedByRule} />
        {/* shown, not announced (every 5 s would be chatter): QueueResults announces what is new */}
        <span className={liveIndicator.live}>
          <span className={liveIndicator.dot} aria-hidden="true" />
          {query.isRefetching ? "Refreshing…" : "Live: refreshes every 5 s"}
        </span>
      </div>

      <Suspense fallback={<QueueSkeleton />}>
        {query.isPending ? (
          <QueueSkeleton />
        ) : (
          <QueueResults
            pool={pool}
            state={state}
            awaitingMine={awaitingMine}
            decidedByRule={decidedByRule}
            cursor={cursor}
            view={view}
            pendingIds={pendingIds}
            selected={selected}
            setSelected={setSelected}
            onAction={setDialog}
            onBulk={(decision) => setDialog({ kind: "bulk", decision, requests: selectedRequests })}
          />
        )}
      </Suspense>

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
