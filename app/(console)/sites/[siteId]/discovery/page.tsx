import { notFound } from "next/navigation";
import { DiscoveryImport } from "@/components/attestation/discovery-import";
import { DiscoveryRowActions } from "@/components/attestation/discovery-row-actions";
import styles from "@/components/attestation/attestation.module.css";
import dataTable from "@/components/ui/data-table.module.css";
import tableCards from "@/components/ui/table-cards.module.css";
import listPage from "@/components/ui/list-page.module.css";
import { ActionsColumnHeader } from "@/components/ui/actions-column-header";
import { NextPageLink } from "@/components/ui/next-page-link";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/join-requests/countdown";
import { NavLink } from "@/components/ui/nav-link";
import { safeDecode } from "@/lib/url/safe-decode";
import { listDiscoveredMachinesInput } from "@/lib/validations/attestation";
import { requireUser } from "@/server/auth/current-user";
import { findSiteForPrincipal } from "@/server/attestation/find-site-for-principal";
import { listDiscoveredMachines } from "@/server/attestation/discovery/list-discovered-machines";
import { getDb } from "@/server/db/client";

type Props = { params: Promise<{ siteId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const PAGE_SIZE = 50;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export async function generateMetadata({ params }: Props) {
  return { title: `${safeDecode((await params).siteId)} — discovery inventory` };
}

function href(siteId: string, view: { query?: string; cursor?: string }) {
  const search = new URLSearchParams();
  if (view.query) search.set("query", view.query);
  if (view.cursor) search.set("cursor", view.cursor);
  const text = search.toString();
  return `/sites/${encodeURIComponent(siteId)}/discovery${text ? `?${text}` : ""}`;
}

// A site's discovery inventory (SPEC E3): the machines the discovery attestor
// knows, searchable by UUID or MAC prefix, paged by UUID; the search and the
// cursor live in the URL. Tenant-admins import, assign and remove.
export default async function SiteDiscoveryPage({ params, searchParams }: Props) {
  const siteId = safeDecode((await params).siteId);
  const raw = await searchParams;
  const view = { query: first(raw.query)?.trim() || undefined, cursor: first(raw.cursor) || undefined };
  const { principal } = await requireUser(href(siteId, view));
  const db = await getDb();
  const site = await findSiteForPrincipal({ db, principal, siteId });
  if (!site) notFound();
  // a bad query or cursor in the URL is ignored rather than an error page
  const parsed = listDiscoveredMachinesInput.safeParse({ tenantId: site.tenantId, siteId, ...view, limit: PAGE_SIZE });
  const input = parsed.success ? parsed.data : { tenantId: site.tenantId, siteId, limit: PAGE_SIZE };
  const { machines, nextCursor } = await listDiscoveredMachines(db, input);

  return (
    <>
      <nav aria-label="Breadcrumb">
        <NavLink href="/">Pools</NavLink> <span aria-hidden="true">/</span> {site.tenantName} · {site.name}
      </nav>
      <h1>
        Discovery inventory{" "}
        <span className="mono muted">
          {site.tenantId}/{site.id}
        </span>
      </h1>
      <p className="muted">
        The machines the discovery attestor knows at this site: a join whose system UUID (in any case) and one of its MACs match one is not
        deferred as unknown, and a machine assigned to a pool joins that pool through the site&apos;s enrollment key.
        {site.canManage ? null : " You may read this list; tenant admins change it."}
      </p>
      {site.canManage ? <DiscoveryImport tenantId={site.tenantId} siteId={site.id} /> : null}
      <form className={styles.search} method="get" role="search">
        <div className="field">
          <label htmlFor="query">UUID or MAC prefix</label>
          <input id="query" name="query" defaultValue={view.query ?? ""} maxLength={64} />
        </div>
        <button type="submit" className="button">
          Search
        </button>
        {view.query ? <NavLink href={href(siteId, {})}>Clear</NavLink> : null}
      </form>
      {view.cursor ? (
        <p className={listPage.notice}>
          Showing machines after <code>{view.cursor}</code>.{" "}
          <NavLink href={href(siteId, { query: view.query })}>Back to the first page</NavLink>
        </p>
      ) : null}
      {machines.length === 0 ? (
        <EmptyState testId="discovery-empty">
          <p>
            <strong>{view.query ? `No machine matches ${view.query}.` : "This site's inventory is empty."}</strong>
          </p>
          <p className="muted">
            Every machine joining here is deferred as unknown to discovery until it is imported, or trusted from its join request.
          </p>
        </EmptyState>
      ) : (
        <div className={dataTable.tableWrap}>
          <table className={`${dataTable.table} ${tableCards.cards}`} data-testid="discovery-table">
            <caption className="visually-hidden">Discovered machines of {site.id}</caption>
            <thead>
              <tr>
                <th scope="col">System UUID</th>
                <th scope="col">MAC addresses</th>
                <th scope="col">Pool</th>
                <th scope="col">Added</th>
                {site.canManage ? <ActionsColumnHeader /> : null}
              </tr>
            </thead>
            <tbody>
              {machines.map((machine) => (
                <tr key={machine.systemUuid} data-testid="discovery-row">
                  <td className="mono" data-label="System UUID">
                    {machine.systemUuid}
                  </td>
                  <td className={styles.macs} data-label="MAC addresses">
                    {machine.macAddresses.join(" ")}
                  </td>
                  <td className="mono" data-label="Pool">
                    {machine.assignedPoolId ?? "—"}
                  </td>
                  <td className={dataTable.nowrap} data-label="Added">
                    <LocalTime iso={machine.createdAt} />
                  </td>
                  {site.canManage ? (
                    <td>
                      <DiscoveryRowActions tenantId={site.tenantId} siteId={site.id} machine={machine} pools={site.pools} />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {nextCursor ? <NextPageLink href={href(siteId, { query: view.query, cursor: nextCursor })} /> : null}
    </>
  );
}
