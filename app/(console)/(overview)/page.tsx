import { PoolsOverview } from "@/components/pools/pools-overview";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listPoolsForPrincipal } from "@/server/pools/list-pools-for-principal";
import { listPoolActivity } from "@/server/pools/list-pool-activity";
import { attestationTenants } from "@/server/attestation/find-site-for-principal";

export const metadata = { title: "Pools — Better Compute" };

export default async function PoolsPage() {
  const { principal } = await requireUser("/");
  const db = await getDb();
  const now = new Date();
  const sites = await listPoolsForPrincipal({ db, principal, now });
  const activity = await listPoolActivity({ db, pools: sites.flatMap((site) => site.pools), now });
  return (
    <>
      <h1>Pools</h1>
      <p className="muted">Machines an attestor deferred wait here for a pool admin&apos;s decision.</p>
      <PoolsOverview sites={sites} attestationTenants={attestationTenants(principal).read} activity={activity} />
    </>
  );
}
