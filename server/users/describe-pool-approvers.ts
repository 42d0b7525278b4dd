import "server-only";
import type { Db } from "../db/client";
import { describeActors } from "./describe-actors";

/**
 * Labels for whoever may approve in `poolId` (grants of pool-admin or
 * tenant-admin on it or on its whole tenant): the queue is live, so its rows'
 * approvals (SPEC H1) name principals the page cannot know in advance; these
 * are the ones they can be. An approver outside them shows as its id.
 */
export async function describePoolApprovers(input: { db: Db; tenantId: string; poolId: string }): Promise<Record<string, string>> {
  const { db, tenantId, poolId } = input;
  const grants = await db.roleGrant.findMany({
    where: { tenantId, role: { in: ["pool_admin", "tenant_admin"] }, OR: [{ poolId: null }, { poolId }] },
    select: { userId: true, serviceKeyId: true },
  });
  const actors = grants.flatMap((grant) => (grant.userId ? [grant.userId] : grant.serviceKeyId ? [`bcsk_${grant.serviceKeyId}`] : []));
  return describeActors({ db, tenantId, actors });
}
