"use client";
import { useMutation } from "@tanstack/react-query";
import type { z } from "zod";
import type { ApiClientError } from "@/lib/api-client/api-client-error";
import { testRule } from "@/lib/api-client/approval-rules";
import type { TestRuleAnswer, testRuleInput } from "@/lib/approval-rules/rule-schemas";
import { approvalRuleKeys } from "./keys";

/**
 * The editor's dry run: approvalRules/test with the draft. A mutation, not a
 * query: it runs when asked (on the button), on the draft as it was then, and
 * changes nothing to invalidate.
 */
export function useDryRunMutation(tenantId: string, poolId: string) {
  return useMutation<TestRuleAnswer, ApiClientError, z.input<typeof testRuleInput>>({
    mutationKey: approvalRuleKeys.test(tenantId, poolId),
    mutationFn: (input) => testRule(input),
  });
}
