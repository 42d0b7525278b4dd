import "server-only";
import type { Db } from "../db/client";
import { poolRefInput } from "@/lib/validations/admin";
import { AdminError, parseAdminInput, type AdminOutcome } from "./admin-error";
import { recordAdminChange, type AdminActor } from "./record-admin-change";

/**
 * Archives a pool (it stays readable; no joins, no approvals) or brings it
 * back. One conditional update: already so → "unchanged", no event.
 */
export async function setPoolArchived(args: { db: Db; actor: AdminActor; now: Date; archived: boolean; input: unknown }) {
  const { tenantId, id } = parseAdminInput(poolRefInput, args.input);
  return args.db.$transaction(async (tx) => {
    const { count } = await tx.pool.updateMany({
      where: { id, tenantId, archivedAt: args.archived ? null : { not: null } },
      data: { archivedAt: args.archived ? args.now : null },
    });
    const pool = await tx.pool.findFirst({ where: { id, tenantId } });
    if (!pool) throw new AdminError(`pool ${id} not found in tenant ${tenantId}`, "NOT_FOUND");
    const outcome: AdminOutcome = count > 0 ? "changed" : "unchanged";
    if (outcome === "changed") {
      const verb = args.archived ? "archive" : "unarchive";
      await recordAdminChange(tx, { actor: args.actor, noun: "pool", verb, tenantId, siteId: pool.siteId, poolId: id, id, now: args.now });
    }
    return { outcome, pool };
  });
}
