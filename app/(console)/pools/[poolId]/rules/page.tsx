import { notFound } from "next/navigation";
import { RulesList } from "@/components/approval-rules/rules-list";
import { rulesHref } from "@/components/approval-rules/rule-paths";
import { PoolHeading } from "@/components/pools/pool-heading";
import { PoolNav } from "@/components/pools/pool-nav";
import { safeDecode } from "@/lib/url/safe-decode";
import { listPoolRules } from "@/server/approval-rules/list-pool-rules";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { findPoolForPrincipal } from "@/server/pools/find-pool-for-principal";
import { describeActors } from "@/server/users/describe-actors";

type Props = { params: Promise<{ poolId: string }> };

export async function generateMetadata({ params }: Props) {
  return { title: `${safeDecode((await params).poolId)} — approval rules` };
}

// SPEC H2: the pool's approval rules in order, with what each did in the last
// 24 hours, as approvalRules/list answers them (the first render here; the
// list refreshes itself in the browser).
export default async function PoolRulesPage({ params }: Props) {
  const poolId = safeDecode((await params).poolId);
  const { principal } = await requireUser(rulesHref(poolId));
  const db = await getDb();
  const pool = await findPoolForPrincipal({ db, principal, poolId });
  if (!pool) notFound();
  const rules = await listPoolRules({ db, pool, now: new Date() });
  const actors = await describeActors({ db, tenantId: pool.tenantId, actors: rules.map((rule) => rule.updatedBy) });
  return (
    <>
      <PoolHeading pool={pool}>
        <PoolNav poolId={pool.id} current="rules" />
      </PoolHeading>
      <h2>Approval rules</h2>
      <RulesList
        scope={{ tenantId: pool.tenantId, poolId: pool.id, canManage: pool.canManageRules }}
        initialRules={rules}
        actors={actors}
      />
    </>
  );
}
