import "server-only";
import type { Db } from "../db/client";
import type { Principal } from "../auth/principal";
import { grantAllowsTenantWide } from "../auth/roles";

export interface ConsoleSite {
  id: string;
  name: string;
  tenantId: string;
  tenantName: string;
  /** the site's pools, for assigning machines */
  pools: { id: string; name: string }[];
  /** holds compute:attestation:manage (tenant-admin) */
  canManage: boolean;
}

/**
 * A site whose discovery inventory the principal may read (a tenant-wide
 * grant, SPEC E2); null when it does not exist *or* is not theirs, so the
 * page cannot tell the two apart (AIP-211).
 */
export async function findSiteForPrincipal(input: { db: Db; principal: Principal; siteId: string }): Promise<ConsoleSite | null> {
  const { db, principal, siteId } = input;
  const tenantIds = attestationTenants(principal).read;
  if (tenantIds.length === 0) return null;
  const site = await db.site.findFirst({
    where: { id: siteId, tenantId: { in: tenantIds } },
    select: {
      id: true,
      name: true,
      tenantId: true,
      tenant: { select: { name: true } },
      pools: { select: { id: true, name: true }, orderBy: { id: "asc" } },
    },
  });
  if (!site) return null;
  return {
    id: site.id,
    name: site.name,
    tenantId: site.tenantId,
    tenantName: site.tenant.name,
    pools: site.pools,
    canManage: attestationTenants(principal).manage.includes(site.tenantId),
  };
}

/** The tenants whose attestors' knowledge the principal may read, for the TPM allow-list page and the overview's links. */
export function attestationTenants(principal: Principal): { read: string[]; manage: string[] } {
  const read = new Set<string>();
  const manage = new Set<string>();
  for (const grant of principal.grants) {
    if (grantAllowsTenantWide(grant, "compute:attestation:read", grant.tenantId)) read.add(grant.tenantId);
    if (grantAllowsTenantWide(grant, "compute:attestation:manage", grant.tenantId)) manage.add(grant.tenantId);
  }
  return { read: [...read], manage: [...manage] };
}
