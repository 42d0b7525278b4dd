import { notFound } from "next/navigation";
import { RuleEditor } from "@/components/approval-rules/rule-editor";
import { RulePageFrame } from "@/components/approval-rules/rule-page-frame";
import { ruleHref } from "@/components/approval-rules/rule-paths";
import { LocalTime } from "@/components/join-requests/countdown";
import { draftOf } from "@/lib/approval-rules/rule-draft";
import { safeDecode } from "@/lib/url/safe-decode";
import { toRuleJson } from "@/server/approval-rules/rule-rows";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { findPoolForPrincipal } from "@/server/pools/find-pool-for-principal";
import { describeActors } from "@/server/users/describe-actors";

type Props = { params: Promise<{ poolId: string; ruleId: string }> };

export async function generateMetadata({ params }: Props) {
  return { title: `${safeDecode((await params).ruleId)} — approval rule` };
}

// SPEC H2: one rule in the editor. Those who may not change it read it and
// may dry-run it; a rule of another pool is this pool's 404.
export default async function RulePage({ params }: Props) {
  const { poolId: rawPoolId, ruleId: rawRuleId } = await params;
  const [poolId, ruleId] = [safeDecode(rawPoolId), safeDecode(rawRuleId)];
  const { principal } = await requireUser(ruleHref(poolId, ruleId));
  const db = await getDb();
  const pool = await findPoolForPrincipal({ db, principal, poolId });
  if (!pool) notFound();
  const row = await db.approvalRule.findFirst({ where: { id: ruleId, poolId: pool.id } });
  if (!row) notFound();
  const rule = toRuleJson(row);
  const actors = await describeActors({ db, tenantId: pool.tenantId, actors: [rule.updatedBy] });
  return (
    <RulePageFrame
      pool={pool}
      title={
        <>
          {rule.name} <span className="mono muted">{rule.id}</span>
        </>
      }
    >
      <p className="muted" data-testid="rule-facts">
        Version {rule.version} · {rule.mode} · changed by {actors[rule.updatedBy] ?? rule.updatedBy}, <LocalTime iso={rule.updatedAt} />
        {pool.canManageRules ? null : " · read only: you may run the dry run, not change the rule"}
      </p>
      <RuleEditor tenantId={pool.tenantId} poolId={pool.id} ruleId={rule.id} initial={draftOf(rule)} canManage={pool.canManageRules} />
    </RulePageFrame>
  );
}
