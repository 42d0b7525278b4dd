"use client";
import { deleteRule } from "@/lib/api-client/approval-rules";
import { useRuleChangeMutation } from "./rule-change-mutation";

/** approvalRules/delete, from the Rules page's confirm dialog. */
export function useDeleteRuleMutation(tenantId: string, poolId: string, options: { onSuccess?: () => void } = {}) {
  return useRuleChangeMutation({ tenantId, poolId, verb: "delete" }, (ruleId: string) => deleteRule({ tenantId, poolId, ruleId }), options);
}
