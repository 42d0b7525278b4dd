"use client";
import { updateRule } from "@/lib/api-client/approval-rules";
import type { RuleJson, RuleMode } from "@/lib/approval-rules/rule-schemas";
import { useRuleChangeMutation } from "./rule-change-mutation";

/** approvalRules/update with only `mode`: the Rules page's "Enforce" / "Back to shadow". */
export function useSwitchRuleModeMutation(
  tenantId: string,
  poolId: string,
  options: { onSuccess?: (answer: { rule: RuleJson }) => void } = {},
) {
  return useRuleChangeMutation(
    { tenantId, poolId, verb: "mode" },
    ({ ruleId, mode }: { ruleId: string; mode: RuleMode }) => updateRule({ tenantId, poolId, ruleId, mode }),
    options,
  );
}
