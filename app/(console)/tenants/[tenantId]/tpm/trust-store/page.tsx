import { TrustRootAddForm } from "@/components/attestation/trust-root-add-form";
import { TrustRootRemoveButton } from "@/components/attestation/trust-root-remove-button";
import dataTable from "@/components/ui/data-table.module.css";
import tableCards from "@/components/ui/table-cards.module.css";
import { ActionsColumnHeader } from "@/components/ui/actions-column-header";
import { NextPageLink } from "@/components/ui/next-page-link";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/join-requests/countdown";
import { NavLink } from "@/components/ui/nav-link";
import { listTpmTrustedRoots } from "@/server/attestation/trust-store/tpm-trust-store";
import { openTenantAttestationPage, TENANT_ATTESTATION_PAGE_SIZE, type TenantAttestationPageProps } from "../open-tenant-attestation-page";

export const metadata = { title: "TPM trust store — Better Compute" };

// A tenant's TPM trust store (SPEC I1), beside its allow-list: the
// manufacturer roots an EK certificate may chain to, by fingerprint, paged by
// the cursor in the URL. Tenant-admins (compute:attestation:manage) add and remove.
export default async function TpmTrustStorePage(props: TenantAttestationPageProps) {
  const { db, tenantId, tenant, canManage, cursor } = await openTenantAttestationPage(props, "/tpm/trust-store");
  const { roots, nextCursor } = await listTpmTrustedRoots(db, { tenantId, limit: TENANT_ATTESTATION_PAGE_SIZE, cursor });
  // tpmTrustStore/remove takes the certificate itself: the rows shown, with their PEMs, for those who may remove
  const pems = canManage
    ? new Map(
        (
          await db.tpmTrustedRoot.findMany({
            where: { tenantId, sha256: { in: roots.map((root) => root.sha256) } },
            select: { sha256: true, pem: true },
          })
        ).map((row) => [row.sha256, row.pem]),
      )
    : new Map<string, string>();
  const now = new Date();

  return (
    <>
      <nav aria-label="Breadcrumb">
        <NavLink href="/">Pools</NavLink> <span aria-hidden="true">/</span> {tenant.name}
      </nav>
      <h1>
        TPM trust store <span className="mono muted">{tenantId}</span>
      </h1>
      <p className="muted">
        In pools that require a TPM, a machine whose endorsement-key certificate chains to a root here passes the tpm attestor, as one on
        the <NavLink href={`/tenants/${encodeURIComponent(tenantId)}/tpm`}>TPM allow-list</NavLink> does.
        {canManage ? null : " You may read this list; tenant admins change it."}
      </p>
      {canManage ? <TrustRootAddForm tenantId={tenantId} /> : null}
      {roots.length === 0 ? (
        <EmptyState testId="trust-store-empty">
          <p>
            <strong>No root certificate is trusted yet.</strong>
          </p>
        </EmptyState>
      ) : (
        <div className={dataTable.tableWrap}>
          <table className={`${dataTable.table} ${tableCards.cards}`} data-testid="trust-store-table">
            <caption className="visually-hidden">Trusted TPM manufacturer roots of {tenantId}</caption>
            <thead>
              <tr>
                <th scope="col">Subject</th>
                <th scope="col">SHA-256 fingerprint</th>
                <th scope="col">Valid</th>
                {canManage ? <ActionsColumnHeader /> : null}
              </tr>
            </thead>
            <tbody>
              {roots.map((root) => (
                <tr key={root.sha256} data-testid="trust-store-row">
                  <td data-label="Subject">{root.subject || <span className="muted">(empty subject)</span>}</td>
                  <td className="mono" data-label="SHA-256">
                    {root.sha256}
                  </td>
                  <td data-label="Valid">
                    <LocalTime iso={root.notBefore} /> – <LocalTime iso={root.notAfter} />
                    {Date.parse(root.notAfter) < now.getTime() ? <strong> (expired)</strong> : null}
                  </td>
                  {canManage ? (
                    <td>
                      <TrustRootRemoveButton tenantId={tenantId} subject={root.subject} pem={pems.get(root.sha256) ?? ""} />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {nextCursor ? <NextPageLink href={`/tenants/${encodeURIComponent(tenantId)}/tpm/trust-store?cursor=${nextCursor}`} /> : null}
    </>
  );
}
