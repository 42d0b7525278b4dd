import { notFound } from "next/navigation";
import { safeDecode } from "@/lib/url/safe-decode";
import { JoinRequestQueue } from "@/components/join-requests/join-request-queue";
import { queuePoolOf } from "@/components/join-requests/queue-pool";
import { PoolHeading } from "@/components/pools/pool-heading";
import { PoolNav } from "@/components/pools/pool-nav";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { findPoolForPrincipal } from "@/server/pools/find-pool-for-principal";
import { describePoolApprovers } from "@/server/users/describe-pool-approvers";

type Props = { params: Promise<{ poolId: string }> };

export async function generateMetadata({ params }: Props) {
  return { title: `${safeDecode((await params).poolId)} — join requests` };
}

// The pool's queue. The tenant comes from the pool; a pool that does not
// exist and one the user has no grant on look the same (not-found.tsx).
export default async function PoolQueuePage({ params }: Props) {
  const poolId = safeDecode((await params).poolId);
  const { principal } = await requireUser(`/pools/${encodeURIComponent(poolId)}`);
  const db = await getDb();
  const pool = await findPoolForPrincipal({ db, principal, poolId });
  if (!pool) notFound();
  // who the rows' approvals (SPEC H1) can name, so the queue shows people, not ids
  const approverNames = await describePoolApprovers({ db, tenantId: pool.tenantId, poolId: pool.id });
  return (
    <>
      <PoolHeading pool={pool}>
        <PoolNav poolId={pool.id} current="requests" />
      </PoolHeading>
      <JoinRequestQueue pool={queuePoolOf(pool, approverNames)} />
    </>
  );
}
