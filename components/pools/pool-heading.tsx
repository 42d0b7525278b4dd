import { NavLink } from "@/components/ui/nav-link";
import type { ConsolePool } from "@/lib/pools/console-pool";
import { PoolSettingsButtons } from "./pool-settings-buttons";
import styles from "./pool-heading.module.css";

const roleLabel = (pool: ConsolePool) =>
  pool.canManageAttestation || pool.canManagePool
    ? "you are a tenant admin"
    : pool.canDecide
      ? "you are a pool admin"
      : "read only: you are a pool viewer";

export function PoolHeading({ pool, children }: { pool: ConsolePool; children?: React.ReactNode }) {
  return (
    <div className={styles.heading}>
      <nav aria-label="Breadcrumb" className={styles.crumbs}>
        <NavLink href="/">Pools</NavLink> <span aria-hidden="true">/</span>{" "}
        <span>
          {pool.tenantName} · {pool.siteName}
        </span>
      </nav>
      <h1>
        {pool.name} <span className="mono muted">{pool.id}</span>
      </h1>
      <div className={styles.badges}>
        {pool.archivedAt ? <span className="badge badge-archived">archived</span> : null}
        {pool.requiresTpm ? <span className="badge">TPM required</span> : null}
        <span className="badge">{roleLabel(pool)}</span>
        {/* SPEC H1: a badge for everyone when more than one approval is required; always for those who may change it */}
        {pool.canManagePool || pool.approvalsRequired > 1 ? (
          <span className="badge" data-testid="approvals-required">
            {pool.approvalsRequired} approval{pool.approvalsRequired === 1 ? "" : "s"} required
          </span>
        ) : null}
        {pool.canManagePool ? (
          <PoolSettingsButtons
            tenantId={pool.tenantId}
            poolId={pool.id}
            approvalsRequired={pool.approvalsRequired}
            notifyDefault={pool.notifyDefault}
            escalateAfterMinutes={pool.escalateAfterMinutes}
            escalationEmails={pool.escalationEmails}
          />
        ) : null}
      </div>
      {pool.archivedAt ? (
        <p className="muted">This pool is archived: it can still reject requests and withdraw approvals, but not approve.</p>
      ) : null}
      {children}
    </div>
  );
}
