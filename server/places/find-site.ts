import "server-only";
import type { Db, Tx } from "../db/client";
import { ApiError } from "../api/errors";

/** The site `siteId` under `tenantId`; a site of another tenant is not found here (ids are global, like pools'). */
export async function findSite(db: Db | Tx, tenantId: string, siteId: string): Promise<{ id: string; tenantId: string }> {
  const site = await db.site.findFirst({ where: { id: siteId, tenantId }, select: { id: true, tenantId: true } });
  if (!site) throw new ApiError("NOT_FOUND", `site ${siteId} not found in tenant ${tenantId}`);
  return site;
}

/** The tenant `tenantId`, or NOT_FOUND (the API's and the admin CLI's one check). */
export async function findTenant(db: Db | Tx, tenantId: string): Promise<{ id: string }> {
  const tenant = await db.tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
  if (!tenant) throw new ApiError("NOT_FOUND", `tenant ${tenantId} not found`);
  return tenant;
}
