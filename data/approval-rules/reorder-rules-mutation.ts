"use client";
import { reorderRules } from "@/lib/api-client/approval-rules";
import { useRuleChangeMutation } from "./rule-change-mutation";

/** approvalRules/reorder with the whole new order (Move up / Move down on the Rules page). */
export function useReorderRulesMutation(tenantId: string, poolId: string, options: { onSuccess?: () => void } = {}) {
  return useRuleChangeMutation(
    { tenantId, poolId, verb: "reorder" },
    (ruleIds: string[]) => reorderRules({ tenantId, poolId, ruleIds }),
    options,
  );
}
