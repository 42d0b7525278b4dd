"use client";
import { lazy, Suspense, useEffect } from "react";
import { useJoinRequestsInfiniteQuery } from "@/data/join-requests/join-requests-infinite-query";
import { QueueSkeleton } from "./queue-skeleton";
import { StateFilterRadios } from "./state-filter";
import { AwaitingMineFilter } from "./awaiting-mine-filter";
import { DecidedByRuleFilter } from "./decided-by-rule-filter";
import { useQueueUrlState } from "./queue-url-state";
import type { QueuePool } from "./queue-pool";
import listPage from "@/components/ui/list-page.module.css";
import liveIndicator from "@/components/ui/live-indicator.module.css";

// Rows exist only once the first fetch answers (the server renders the
// skeleton: its query has no data there), so what shows them and acts on
// them (the selection and the bulk bar, the table with its badges and
// countdowns, the dialogs they open, the empty and error states) is not
// needed to paint or hydrate the page. The queue starts loading it on mount,
// beside that first fetch; the skeleton stays until both are in.
const loadResults = () => import("./queue-results");
const QueueResults = lazy(() => loadResults().then((m) => ({ default: m.QueueResults })));

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
  const { query } = view;
  useEffect(() => void loadResults(), []);

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
          <QueueResults pool={pool} state={state} awaitingMine={awaitingMine} decidedByRule={decidedByRule} cursor={cursor} view={view} />
        )}
      </Suspense>
    </>
  );
}
