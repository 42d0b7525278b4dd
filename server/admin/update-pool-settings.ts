import "server-only";
import type { Db } from "../db/client";
import type { Pool } from "../db/generated/client";
import { AdminError, type AdminOutcome } from "./admin-error";
import { recordAdminChange, type AdminActor } from "./record-admin-change";

/**
 * SPEC H1: changes a pool's settings (its approvals required), for pools/update
 * and the operator's command line. One conditional update: a setting already
 * so is "unchanged", with no event. Requests already waiting keep the count
 * they were deferred with. `tenantId` undefined: the pool wherever it is
 * (pool ids are unique across the control plane; the command line names only the pool).
 */
export async function updatePoolSettings(args: {
  db: Db;
  actor: AdminActor;
  now: Date;
  tenantId?: string;
  poolId: string;
  approvalsRequired?: number;
}): Promise<{ outcome: AdminOutcome; pool: Pool }> {
  const { tenantId, poolId, approvalsRequired } = args;
  return args.db.$transaction(async (tx) => {
    const before = await tx.pool.findFirst({ where: { id: poolId, ...(tenantId ? { tenantId } : {}) } });
    if (!before) throw new AdminError(`pool ${poolId} not found${tenantId ? ` in tenant ${tenantId}` : ""}`, "NOT_FOUND");
    if (approvalsRequired === undefined) return { outcome: "unchanged", pool: before };
    const { count } = await tx.pool.updateMany({
      where: { id: poolId, approvalsRequired: { not: approvalsRequired } },
      data: { approvalsRequired },
    });
    if (count === 0) return { outcome: "unchanged", pool: { ...before, approvalsRequired } };
    await recordAdminChange(tx, {
      actor: args.actor,
      noun: "pool",
      verb: "update",
      tenantId: before.tenantId,
      siteId: before.siteId,
      poolId,
      id: poolId,
      now: args.now,
      data: { approvalsRequired: String(approvalsRequired), previousApprovalsRequired: String(before.approvalsRequired) },
    });
    return { outcome: "changed", pool: { ...before, approvalsRequired } };
  });
}
