import { NavLink } from "@/components/ui/nav-link";
import type { SiteSummary } from "@/lib/pools/pool-summary";
import type { ActivityHour } from "@/lib/pools/activity-hour";
import { PoolActivityChart } from "./pool-activity-chart";
import styles from "./pools-overview.module.css";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The signed-in user's pools, grouped by site, with what waits in each queue and its last 24 hours. */
export function PoolsOverview({
  sites,
  attestationTenants = [],
  activity,
}: {
  sites: SiteSummary[];
  attestationTenants?: string[];
  activity?: Map<string, ActivityHour[]>;
}) {
  const hoursOf = (poolId: string) => activity?.get(poolId);
  if (sites.length === 0) {
    return (
      <div className={`card ${styles.empty}`}>
        <h2>No pools yet</h2>
        <p className="muted">
          Your account holds no role on any pool. Ask an administrator of your tenant for a pool-viewer or pool-admin grant.
        </p>
      </div>
    );
  }
  return (
    <>
      {sites.map((site) => (
        <section key={site.id} className={styles.site} aria-labelledby={`site-${site.id}`} data-testid={`site-${site.id}`}>
          <div className={styles.siteHeader}>
            <h2 id={`site-${site.id}`}>{site.name}</h2>
            <span className="muted mono">
              {site.tenantId}/{site.id}
            </span>
            <span className="muted">{site.tenantName}</span>
            {attestationTenants.includes(site.tenantId) ? (
              // the attestors' knowledge: read by tenant-wide roles (SPEC E2)
              <>
                <NavLink href={`/sites/${encodeURIComponent(site.id)}/discovery`}>Discovery inventory</NavLink>
                <NavLink href={`/tenants/${encodeURIComponent(site.tenantId)}/tpm`}>TPM allow-list</NavLink>
                <NavLink href={`/tenants/${encodeURIComponent(site.tenantId)}/tpm/trust-store`}>TPM trust store</NavLink>
              </>
            ) : null}
          </div>
          {site.unclaimedPending > 0 ? (
            <p className={styles.unclaimed} data-testid={`unclaimed-${site.id}`}>
              <strong>{plural(site.unclaimedPending, "unclaimed site request", "unclaimed site requests")}</strong> — machines enrolled at
              this site without a pool. They appear in every pool&apos;s queue here; the first pool to approve or reject one claims it.
            </p>
          ) : null}
          <ul className={styles.grid}>
            {site.pools.map((pool) => (
              // the chart's table is interactive, so it sits beside the link, not in it
              <li key={pool.id} className={styles.card}>
                <NavLink href={`/pools/${encodeURIComponent(pool.id)}`} className={styles.pool} data-testid={`pool-${pool.id}`}>
                  <span className={styles.poolName}>
                    {pool.name}
                    <span className="mono muted">{pool.id}</span>
                  </span>
                  <span>
                    <span className={`${styles.count} ${pool.pendingEffective === 0 ? styles.countZero : ""}`} data-testid="pending-count">
                      {pool.pendingEffective}
                    </span>{" "}
                    pending
                    {pool.pendingEffective !== pool.pendingOwn ? (
                      <span className="muted">
                        {" "}
                        ({pool.pendingOwn} own + {pool.pendingEffective - pool.pendingOwn} unclaimed)
                      </span>
                    ) : null}
                  </span>
                  <span className={styles.badges}>
                    {pool.archived ? <span className="badge badge-archived">archived</span> : null}
                    {pool.requiresTpm ? <span className="badge">TPM required</span> : null}
                    <span className="badge">{pool.canDecide ? "admin" : "viewer"}</span>
                  </span>
                </NavLink>
                {hoursOf(pool.id) ? <PoolActivityChart poolName={pool.name} hours={hoursOf(pool.id)!} /> : null}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}
