import "server-only";
import type { Db } from "../db/client";
import { optional, siteIdField, tenantIdField } from "@/lib/validations/fields";
import { z } from "zod";
import { parseAdminInput } from "./admin-error";

// What an operator lists: tenants, a tenant's sites, a tenant's pools (of one site).

export const listTenants = (db: Db) => db.tenant.findMany({ orderBy: { id: "asc" } });

export function listSites(db: Db, input: unknown) {
  const { tenantId } = parseAdminInput(z.strictObject({ tenantId: tenantIdField }), input);
  return db.site.findMany({ where: { tenantId }, orderBy: { id: "asc" } });
}

export function listPools(db: Db, input: unknown) {
  const { tenantId, siteId } = parseAdminInput(z.strictObject({ tenantId: tenantIdField, siteId: optional(siteIdField) }), input);
  return db.pool.findMany({ where: { tenantId, ...(siteId ? { siteId } : {}) }, orderBy: [{ siteId: "asc" }, { id: "asc" }] });
}
