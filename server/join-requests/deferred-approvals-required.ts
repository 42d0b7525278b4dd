import "server-only";
import type { Tx } from "../db/client";

/**
 * SPEC H1: how many approvals a request deferred into `poolId` needs: its
 * pool's count when it is deferred (a later change of the pool's count does
 * not move the requests already waiting). An unclaimed site request starts at
 * 1 and takes the claiming pool's count on its first approval.
 */
export async function deferredApprovalsRequired(tx: Tx, poolId: string | null): Promise<number> {
  if (poolId === null) return 1;
  const pool = await tx.pool.findUnique({ where: { id: poolId }, select: { approvalsRequired: true } });
  return pool?.approvalsRequired ?? 1;
}
