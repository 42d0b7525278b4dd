import "server-only";
import { findSite } from "../places/find-site";
import type { Db } from "../db/client";
import { createPoolInput } from "@/lib/validations/admin";
import { parseAdminInput } from "./admin-error";
import { insertOrCompare } from "./insert-or-compare";
import { recordAdminChange, type AdminActor } from "./record-admin-change";

/** Creates a pool in a site of the tenant; pool ids are unique across the control plane. */
export async function createPool(args: { db: Db; actor: AdminActor; now: Date; input: unknown }) {
  const { tenantId, siteId, id, name, requiresTpm } = parseAdminInput(createPoolInput, args.input);
  return args.db.$transaction(async (tx) => {
    await findSite(tx, tenantId, siteId);
    const result = await insertOrCompare({
      describe: `pool ${id}`,
      insert: async () =>
        (await tx.pool.createMany({ data: [{ id, tenantId, siteId, name, requiresTpm, createdAt: args.now }], skipDuplicates: true }))
          .count,
      read: () => tx.pool.findUnique({ where: { id } }),
      differences: (pool) => [
        ...(pool.tenantId === tenantId && pool.siteId === siteId ? [] : [`another place (${pool.tenantId}/${pool.siteId})`]),
        ...(pool.name === name ? [] : [`the name "${pool.name}"`]),
        ...(pool.requiresTpm === requiresTpm ? [] : [pool.requiresTpm ? "TPM required" : "no TPM required"]),
      ],
    });
    if (result.outcome === "created") {
      await recordAdminChange(tx, {
        actor: args.actor,
        noun: "pool",
        verb: "create",
        tenantId,
        siteId,
        poolId: id,
        id,
        now: args.now,
        data: { requiresTpm: String(requiresTpm) },
      });
    }
    return { outcome: result.outcome, pool: result.row };
  });
}
