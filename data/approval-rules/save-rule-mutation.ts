"use client";
import type { z } from "zod";
import { createRule, updateRule } from "@/lib/api-client/approval-rules";
import type { createRuleInput, RuleJson, updateRuleInput } from "@/lib/approval-rules/rule-schemas";
import { useRuleChangeMutation } from "./rule-change-mutation";

export type SaveRuleInput = { create: z.input<typeof createRuleInput> } | { update: z.input<typeof updateRuleInput> };

/** The editor's Save: approvalRules/create for a new rule, approvalRules/update for a stored one. */
export function useSaveRuleMutation(tenantId: string, poolId: string, options: { onSuccess?: (answer: { rule: RuleJson }) => void } = {}) {
  return useRuleChangeMutation(
    { tenantId, poolId, verb: "save" },
    (input: SaveRuleInput) => ("create" in input ? createRule(input.create) : updateRule(input.update)),
    options,
  );
}
