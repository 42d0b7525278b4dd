import "server-only";
import type { Db } from "../db/client";
import { createTenantInput } from "@/lib/validations/admin";
import { parseAdminInput } from "./admin-error";
import { insertOrCompare } from "./insert-or-compare";
import { recordAdminChange, type AdminActor } from "./record-admin-change";

/** Creates a tenant (`npm run admin -- tenants create`); the same one again changes nothing. */
export async function createTenant(args: { db: Db; actor: AdminActor; now: Date; input: unknown }) {
  const { id, name } = parseAdminInput(createTenantInput, args.input);
  return args.db.$transaction(async (tx) => {
    const result = await insertOrCompare({
      describe: `tenant ${id}`,
      insert: async () => (await tx.tenant.createMany({ data: [{ id, name, createdAt: args.now }], skipDuplicates: true })).count,
      read: () => tx.tenant.findUnique({ where: { id } }),
      differences: (tenant) => (tenant.name === name ? [] : [`the name "${tenant.name}"`]),
    });
    if (result.outcome === "created") {
      await recordAdminChange(tx, { actor: args.actor, noun: "tenant", verb: "create", tenantId: id, id, now: args.now });
    }
    return { outcome: result.outcome, tenant: result.row };
  });
}
