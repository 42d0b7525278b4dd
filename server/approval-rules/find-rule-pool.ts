import "server-only";
import type { Db } from "../db/client";
import { ApiError } from "../api/errors";
import type { RulePool } from "./rule-approval-guard";

/** A pool as the rules act for it (with its approvals required); `tenantId` undefined: wherever it is (the operator's command line). */
export async function findRulePool(db: Db, poolId: string, tenantId?: string): Promise<RulePool> {
  const pool = await db.pool.findFirst({
    where: { id: poolId, ...(tenantId ? { tenantId } : {}) },
    select: {
      id: true,
      tenantId: true,
      siteId: true,
      requiresTpm: true,
      requireKnownBoot: true,
      archivedAt: true,
      approvalsRequired: true,
    },
  });
  if (!pool) throw new ApiError("NOT_FOUND", `pool ${poolId} not found${tenantId ? ` in tenant ${tenantId}` : ""}`);
  return pool;
}
