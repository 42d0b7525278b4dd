import "server-only";
import type { Db } from "../../db/client";
import { parseAdminInput } from "../../admin/admin-error";
import { recordAdminChange, type AdminActor } from "../../admin/record-admin-change";
import { removeDiscoveredMachinesInput } from "@/lib/validations/attestation";

/** Forgets machines of a site's discovery inventory: their next join is deferred again. */
export async function removeDiscoveredMachines(args: { db: Db; actor: AdminActor; now: Date; input: unknown }) {
  const { tenantId, siteId, systemUuids } = parseAdminInput(removeDiscoveredMachinesInput, args.input);
  return args.db.$transaction(async (tx) => {
    const { count } = await tx.discoveredMachine.deleteMany({ where: { tenantId, siteId, systemUuid: { in: systemUuids } } });
    if (count > 0) {
      await recordAdminChange(tx, {
        type: "compute.discovery.changed",
        actor: args.actor,
        noun: "discovery",
        verb: "remove",
        tenantId,
        siteId,
        id: siteId,
        now: args.now,
        data: { removed: String(count) },
      });
    }
    return { removed: count };
  });
}
