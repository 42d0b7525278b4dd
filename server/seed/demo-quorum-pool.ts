import "server-only";
import type { Db } from "../db/client";
import { createPool } from "../admin/create-pool";
import { updatePoolSettings } from "../admin/update-pool-settings";
import type { AdminActor } from "../admin/record-admin-change";
import { approveJoinRequest } from "../join-requests/approve-join-request";
import type { PoolFacts } from "../places/find-pool";
import { DEMO_QUORUM_POOL } from "./demo-data";

const DEMO_FIRST_APPROVER = "admin@acme.test";

/** SPEC H1's demo pool: created, then set to require its approvals as a tenant-admin would; a count changed since is left alone. */
export async function seedQuorumPool(admin: { db: Db; actor: AdminActor; now: Date }): Promise<void> {
  const { approvalsRequired, ...pool } = DEMO_QUORUM_POOL;
  const { outcome } = await createPool({ ...admin, input: pool });
  if (outcome === "created") await updatePoolSettings({ ...admin, tenantId: pool.tenantId, poolId: pool.id, approvalsRequired });
}

/** The first of gpu-c's two approvals, as admin@acme.test gives it in the console; the second is the demo's to give. */
export async function approveFirstOfTwo(db: Db, pool: PoolFacts, requestId: string, now: Date): Promise<void> {
  const user = await db.user.findUniqueOrThrow({ where: { email: DEMO_FIRST_APPROVER }, select: { id: true } });
  const request = await approveJoinRequest({ db, pool, requestId, ttlSeconds: 4 * 3600, actor: user.id, now });
  if (request.state !== "pending" || request.approvals.length !== 1) {
    throw new Error(`demo request ${requestId} should wait for a second approval, got ${JSON.stringify(request)}`);
  }
}
