import { TpmAllowForm } from "@/components/attestation/tpm-allow-form";
import { TpmRemoveButton } from "@/components/attestation/tpm-remove-button";
import dataTable from "@/components/ui/data-table.module.css";
import tableCards from "@/components/ui/table-cards.module.css";
import { ActionsColumnHeader } from "@/components/ui/actions-column-header";
import { NextPageLink } from "@/components/ui/next-page-link";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/join-requests/countdown";
import { NavLink } from "@/components/ui/nav-link";
import { listTpmAllowedKeys } from "@/server/attestation/allow-list/tpm-allow-list";
import { openTenantAttestationPage, TENANT_ATTESTATION_PAGE_SIZE, type TenantAttestationPageProps } from "./open-tenant-attestation-page";

export const metadata = { title: "TPM allow-list — Better Compute" };

// A tenant's TPM allow-list (SPEC E3): the endorsement keys the tpm attestor
// vouches for, by hash, paged by the cursor in the URL. Tenant-admins add and remove.
export default async function TpmAllowListPage(props: TenantAttestationPageProps) {
  const { db, tenantId, tenant, canManage, cursor } = await openTenantAttestationPage(props, "/tpm");
  const { keys, nextCursor } = await listTpmAllowedKeys(db, { tenantId, limit: TENANT_ATTESTATION_PAGE_SIZE, cursor });

  return (
    <>
      <nav aria-label="Breadcrumb">
        <NavLink href="/">Pools</NavLink> <span aria-hidden="true">/</span> {tenant.name}
      </nav>
      <h1>
        TPM allow-list <span className="mono muted">{tenantId}</span>
      </h1>
      <p className="muted">
        In pools that require a TPM, a machine whose endorsement key is listed here passes the tpm attestor; others are deferred.
        {canManage ? null : " You may read this list; tenant admins change it."} An endorsement key whose certificate chains to a root of
        the <NavLink href={`/tenants/${encodeURIComponent(tenantId)}/tpm/trust-store`}>TPM trust store</NavLink> passes too.
      </p>
      {canManage ? <TpmAllowForm tenantId={tenantId} /> : null}
      {keys.length === 0 ? (
        <EmptyState testId="tpm-empty">
          <p>
            <strong>No endorsement key is allowed yet.</strong>
          </p>
        </EmptyState>
      ) : (
        <div className={dataTable.tableWrap}>
          <table className={`${dataTable.table} ${tableCards.cards}`} data-testid="tpm-table">
            <caption className="visually-hidden">Allowed endorsement keys of {tenantId}</caption>
            <thead>
              <tr>
                <th scope="col">EK SHA-256</th>
                <th scope="col">Note</th>
                <th scope="col">Added</th>
                {canManage ? <ActionsColumnHeader /> : null}
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.ekSha256} data-testid="tpm-row">
                  <td className="mono" data-label="EK SHA-256">
                    {key.ekSha256}
                  </td>
                  <td data-label="Note">{key.note || <span className="muted">—</span>}</td>
                  <td className={dataTable.nowrap} data-label="Added">
                    <LocalTime iso={key.createdAt} />
                  </td>
                  {canManage ? (
                    <td>
                      <TpmRemoveButton tenantId={tenantId} ekSha256={key.ekSha256} />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {nextCursor ? <NextPageLink href={`/tenants/${encodeURIComponent(tenantId)}/tpm?cursor=${nextCursor}`} /> : null}
    </>
  );
}
