import { notFound } from "next/navigation";
import choiceFilter from "@/components/ui/choice-filter.module.css";
import listPage from "@/components/ui/list-page.module.css";
import { NextPageLink } from "@/components/ui/next-page-link";
import { EmptyState } from "@/components/ui/empty-state";
import { LiveRefresh } from "@/components/nodes/live-refresh";
import { nodeListHref, readNodeListView } from "@/components/nodes/node-url";
import { NodesTable } from "@/components/nodes/nodes-table";
import { PoolHeading } from "@/components/pools/pool-heading";
import { PoolNav } from "@/components/pools/pool-nav";
import { NavLink } from "@/components/ui/nav-link";
import { safeDecode } from "@/lib/url/safe-decode";
import { NODE_STATE_FILTERS } from "@/lib/validations/nodes";
import { ATTESTATION_STATES } from "@/lib/nodes/node-attestation";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { sectionsOf } from "@/server/inventory/read-snapshots";
import { findMachineTwins } from "@/server/nodes/find-machine-twins";
import { listNodes } from "@/server/nodes/list-nodes";
import { findPoolForPrincipal } from "@/server/pools/find-pool-for-principal";

type Props = {
  params: Promise<{ poolId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const PAGE_SIZE = 50;

export async function generateMetadata({ params }: Props) {
  return { title: `${safeDecode((await params).poolId)} — nodes` };
}

// The machines a pool admitted (SPEC D1): what nodes/list returns, with a
// summary of each one's latest inventory; state and page in the URL.
export default async function PoolNodesPage({ params, searchParams }: Props) {
  const poolId = safeDecode((await params).poolId);
  const view = readNodeListView(await searchParams);
  const { principal } = await requireUser(nodeListHref(poolId, view));
  const db = await getDb();
  const pool = await findPoolForPrincipal({ db, principal, poolId });
  if (!pool) notFound();
  const { nodes, nextCursor } = await listNodes({
    db,
    pool,
    state: view.state,
    attestation: view.attestation ?? undefined,
    limit: PAGE_SIZE,
    cursor: view.cursor ?? undefined,
    now: new Date(),
  });
  const [sections, twins] = await Promise.all([
    sectionsOf(
      db,
      nodes.flatMap((node) => (node.inventory ? [node.inventory.snapshotId] : [])),
    ),
    findMachineTwins(db, pool, nodes),
  ]);
  return (
    <>
      <PoolHeading pool={pool}>
        <PoolNav poolId={pool.id} current="nodes" />
      </PoolHeading>
      <div className={listPage.toolbar}>
        <nav className={choiceFilter.filters} aria-label="Filter by state">
          {NODE_STATE_FILTERS.map((state) => (
            <NavLink
              key={state}
              href={nodeListHref(pool.id, { state, attestation: view.attestation })}
              className={choiceFilter.filter}
              aria-current={state === view.state ? "page" : undefined}
              scroll={false}
            >
              {state}
            </NavLink>
          ))}
        </nav>
        <nav className={choiceFilter.filters} aria-label="Filter by attestation">
          {[null, ...ATTESTATION_STATES].map((attestation) => (
            <NavLink
              key={attestation ?? "any"}
              href={nodeListHref(pool.id, { state: view.state, attestation })}
              className={choiceFilter.filter}
              aria-current={attestation === view.attestation ? "page" : undefined}
              scroll={false}
            >
              {attestation ?? "any attestation"}
            </NavLink>
          ))}
        </nav>
        <LiveRefresh />
      </div>
      {view.cursor ? (
        <p className={listPage.notice}>
          Showing nodes after <code>{view.cursor}</code>.{" "}
          <NavLink href={nodeListHref(pool.id, { state: view.state, attestation: view.attestation })}>Back to the first page</NavLink>
        </p>
      ) : null}
      {nodes.length === 0 ? (
        <EmptyState testId="nodes-empty">
          <p>
            <strong>
              No {view.state === "all" ? "" : `${view.state} `}nodes{view.attestation ? ` whose attestation reads ${view.attestation}` : ""}
              {view.cursor ? " after this one" : ""}.
            </strong>
          </p>
          <p className="muted">
            A machine becomes a node when it is admitted: at once when the attestors vouch for it, or when its retry uses an approval.
          </p>
        </EmptyState>
      ) : (
        <NodesTable poolId={pool.id} nodes={nodes} sections={sections} twins={twins} now={new Date()} />
      )}
      {nextCursor ? (
        <NextPageLink
          className="button"
          href={nodeListHref(pool.id, { state: view.state, attestation: view.attestation, cursor: nextCursor })}
        />
      ) : null}
    </>
  );
}
