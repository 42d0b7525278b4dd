import "server-only";
import { findTenant } from "../places/find-site";
import type { Db } from "../db/client";
import { createSiteInput } from "@/lib/validations/admin";
import { parseAdminInput } from "./admin-error";
import { insertOrCompare } from "./insert-or-compare";
import { recordAdminChange, type AdminActor } from "./record-admin-change";

/** Creates a site of a tenant; site ids are unique across the control plane. */
export async function createSite(args: { db: Db; actor: AdminActor; now: Date; input: unknown }) {
  const { tenantId, id, name } = parseAdminInput(createSiteInput, args.input);
  return args.db.$transaction(async (tx) => {
    await findTenant(tx, tenantId);
    const result = await insertOrCompare({
      describe: `site ${id}`,
      insert: async () => (await tx.site.createMany({ data: [{ id, tenantId, name, createdAt: args.now }], skipDuplicates: true })).count,
      read: () => tx.site.findUnique({ where: { id } }),
      differences: (site) => [
        ...(site.tenantId === tenantId ? [] : [`another tenant (${site.tenantId})`]),
        ...(site.name === name ? [] : [`the name "${site.name}"`]),
      ],
    });
    if (result.outcome === "created") {
      await recordAdminChange(tx, { actor: args.actor, noun: "site", verb: "create", tenantId, siteId: id, id, now: args.now });
    }
    return { outcome: result.outcome, site: result.row };
  });
}
