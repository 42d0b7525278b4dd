import { notFound } from "next/navigation";
import { EventLogTable } from "@/components/events/event-log-table";
import { eventLogHref, readEventLogView, shortType } from "@/components/events/event-log-url";
import { EventTypeFilter } from "@/components/events/event-type-filter";
import listPage from "@/components/ui/list-page.module.css";
import { NextPageLink } from "@/components/ui/next-page-link";
import { EmptyState } from "@/components/ui/empty-state";
import { PoolHeading } from "@/components/pools/pool-heading";
import { PoolNav } from "@/components/pools/pool-nav";
import { NavLink } from "@/components/ui/nav-link";
import { safeDecode } from "@/lib/url/safe-decode";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listEvents } from "@/server/events/list-events";
import { findPoolForPrincipal } from "@/server/pools/find-pool-for-principal";
import { describeActors } from "@/server/users/describe-actors";

type Props = {
  params: Promise<{ poolId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const PAGE_SIZE = 50;

export async function generateMetadata({ params }: Props) {
  return { title: `${safeDecode((await params).poolId)} — events` };
}

// A pool's event log: what events/list returns for the pool (its requests'
// events and its site's unclaimed ones), oldest first, paged by the cursor
// and filtered by type, both in the URL.
export default async function PoolEventsPage({ params, searchParams }: Props) {
  const poolId = safeDecode((await params).poolId);
  const view = readEventLogView(await searchParams);
  const { principal } = await requireUser(eventLogHref(poolId, view));
  const db = await getDb();
  const pool = await findPoolForPrincipal({ db, principal, poolId });
  if (!pool) notFound();
  const { events, nextCursor } = await listEvents({
    db,
    pool,
    types: view.type ? [view.type] : undefined,
    after: view.after ?? undefined,
    limit: PAGE_SIZE,
  });
  const actors = await describeActors({
    db,
    tenantId: pool.tenantId,
    actors: events
      .map((event) => (event.data as { actor?: unknown } | null)?.actor)
      .filter((actor): actor is string => typeof actor === "string"),
  });
  return (
    <>
      <PoolHeading pool={pool}>
        <PoolNav poolId={pool.id} current="events" />
      </PoolHeading>
      <h2>Event log</h2>
      <div className={listPage.toolbar}>
        <EventTypeFilter poolId={pool.id} current={view.type} />
      </div>
      {view.after ? (
        <p className={listPage.notice}>
          Showing events after <code>{view.after}</code>.{" "}
          <NavLink href={eventLogHref(pool.id, { type: view.type })}>Show from the oldest</NavLink>
        </p>
      ) : null}
      {events.length === 0 ? (
        <EmptyState testId="event-log-empty">
          <p>
            <strong>
              No {view.type ? `${shortType(view.type)} ` : ""}events{view.after ? " after this one" : ""}.
            </strong>
          </p>
          <p className="muted">Every decision on this pool&apos;s requests, and on its site&apos;s unclaimed ones, is recorded here.</p>
        </EmptyState>
      ) : (
        <EventLogTable poolId={pool.id} events={events} actors={actors} />
      )}
      {nextCursor ? <NextPageLink className="button" href={eventLogHref(pool.id, { type: view.type, after: nextCursor })} /> : null}
    </>
  );
}
