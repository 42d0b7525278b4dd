import "server-only";
import type { Db } from "../db/client";
import { ApiError } from "../api/errors";

export interface PoolFacts {
  id: string;
  tenantId: string;
  siteId: string;
  requiresTpm: boolean;
  archivedAt: Date | null;
}

/**
 * The pool `poolId` under `tenantId`. Pool ids are unique across the control
 * plane, so a pool of another tenant is simply not found here (SPEC B1).
 */
export async function findPool(db: Db, tenantId: string, poolId: string): Promise<PoolFacts> {
  const pool = await db.pool.findFirst({
    where: { id: poolId, tenantId },
    select: { id: true, tenantId: true, siteId: true, requiresTpm: true, archivedAt: true },
  });
  if (!pool) throw new ApiError("NOT_FOUND", `pool ${poolId} not found in tenant ${tenantId}`);
  return pool;
}
