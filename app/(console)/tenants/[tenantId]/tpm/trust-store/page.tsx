import { notFound } from "next/navigation";
import { TrustRootAddForm } from "@/components/attestation/trust-root-add-form";
import { TrustRootRemoveButton } from "@/components/attestation/trust-root-remove-button";
import dataTable from "@/components/ui/data-table.module.css";
import tableCards from "@/components/ui/table-cards.module.css";
import { ActionsColumnHeader } from "@/components/ui/actions-column-header";
import { NextPageLink } from "@/components/ui/next-page-link";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/join-requests/countdown";
import { NavLink } from "@/components/ui/nav-link";
import { safeDecode } from "@/lib/url/safe-decode";
import { ekSha256Field } from "@/lib/validations/attestation";
import { requireUser } from "@/server/auth/current-user";
import { attestationTenants } from "@/server/attestation/find-site-for-principal";
import { listTpmTrustedRoots } from "@/server/attestation/trust-store/tpm-trust-store";
import { getDb } from "@/server/db/client";

type Props = { params: Promise<{ tenantId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const PAGE_SIZE = 100;

export const metadata = { title: "TPM trust store — Better Compute" };

// A tenant's TPM trust store (SPEC I1), beside its allow-list: the
// manufacturer roots an EK certificate may chain to, by fingerprint, paged by
// the cursor in the URL. Tenant-admins (compute:attestation:manage) add and remove.
export default async function TpmTrustStorePage({ params, searchParams }: Props) {
  const tenantId = safeDecode((await params).tenantId);
  const rawCursor = (await searchParams).cursor;
  const cursor = ekSha256Field.safeParse(Array.isArray(rawCursor) ? rawCursor[0] : rawCursor);
  const { principal } = await requireUser(`/tenants/${encodeURIComponent(tenantId)}/tpm/trust-store`);
  const allowed = attestationTenants(principal);
  if (!allowed.read.includes(tenantId)) notFound();
  const canManage = allowed.manage.includes(tenantId);
  const db = await getDb();
  const tenant = await db.tenant.findUnique({ where: { id: tenantId }, select: { name: true } });
  if (!tenant) notFound();
  const { roots, nextCursor } = await listTpmTrustedRoots(db, {
    tenantId,
    limit: PAGE_SIZE,
    cursor: cursor.success ? cursor.data : undefined,
  });
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
