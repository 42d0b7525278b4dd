import { notFound } from "next/navigation";
import { safeDecode } from "@/lib/url/safe-decode";
import { ekSha256Field } from "@/lib/validations/attestation";
import { requireUser } from "@/server/auth/current-user";
import { attestationTenants } from "@/server/attestation/find-site-for-principal";
import { getDb } from "@/server/db/client";

export type TenantAttestationPageProps = {
  params: Promise<{ tenantId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const TENANT_ATTESTATION_PAGE_SIZE = 100;

/**
 * What a tenant's TPM page (the allow-list, the trust store) reads first: the
 * tenant, the signed-in principal's right to read (else 404) and to manage,
 * and the page's cursor (a SHA-256, the previous page's last) from the URL.
 */
export async function openTenantAttestationPage({ params, searchParams }: TenantAttestationPageProps, subpath: string) {
  const tenantId = safeDecode((await params).tenantId);
  const rawCursor = (await searchParams).cursor;
  const cursor = ekSha256Field.safeParse(Array.isArray(rawCursor) ? rawCursor[0] : rawCursor);
  const { principal } = await requireUser(`/tenants/${encodeURIComponent(tenantId)}${subpath}`);
  const allowed = attestationTenants(principal);
  if (!allowed.read.includes(tenantId)) notFound();
  const db = await getDb();
  const tenant = await db.tenant.findUnique({ where: { id: tenantId }, select: { name: true } });
  if (!tenant) notFound();
  return { db, tenantId, tenant, canManage: allowed.manage.includes(tenantId), cursor: cursor.success ? cursor.data : undefined };
}
