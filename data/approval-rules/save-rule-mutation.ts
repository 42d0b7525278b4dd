"use client";
import { createRule, updateRule } from "@/lib/api-client/approval-rules";
import type { RuleJson } from "@/lib/approval-rules/rule-schemas";
import { useRuleChangeMutation } from "./rule-change-mutation";

export type SaveRuleInput = { create: Parameters<typeof createRule>[0] } | { update: Parameters<typeof updateRule>[0] };

/** The editor's Save: approvalRules/create for a new rule, approvalRules/update for a stored one. */
export function useSaveRuleMutation(tenantId: string, poolId: string, options: { onSuccess?: (answer: { rule: RuleJson }) => void } = {}) {
  return useRuleChangeMutation(
    { tenantId, poolId, verb: "save" },
    (input: SaveRuleInput) => ("create" in input ? createRule(input.create) : updateRule(input.update)),
    options,
  );
}
