import { notFound } from "next/navigation";
import { RuleEditor } from "@/components/approval-rules/rule-editor";
import { RulePageFrame } from "@/components/approval-rules/rule-page-frame";
import { newRuleHref } from "@/components/approval-rules/rule-paths";
import { EMPTY_DRAFT } from "@/lib/approval-rules/rule-draft";
import { safeDecode } from "@/lib/url/safe-decode";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { findPoolForPrincipal } from "@/server/pools/find-pool-for-principal";

type Props = { params: Promise<{ poolId: string }> };

export async function generateMetadata({ params }: Props) {
  return { title: `${safeDecode((await params).poolId)} — new approval rule` };
}

// SPEC H2: a new rule, written, dry-run and saved (in shadow unless chosen).
// Only for those who may change the pool's rules; others get the pool's 404.
export default async function NewRulePage({ params }: Props) {
  const poolId = safeDecode((await params).poolId);
  const { principal } = await requireUser(newRuleHref(poolId));
  const db = await getDb();
  const pool = await findPoolForPrincipal({ db, principal, poolId });
  if (!pool || !pool.canManageRules) notFound();
  return (
    <RulePageFrame pool={pool} title="New approval rule">
      <RuleEditor tenantId={pool.tenantId} poolId={pool.id} ruleId={null} initial={EMPTY_DRAFT} canManage />
    </RulePageFrame>
  );
}
