"use client";
import { useQuery } from "@tanstack/react-query";
import { listRules } from "@/lib/api-client/approval-rules";
import type { ListedRuleJson } from "@/lib/approval-rules/rule-schemas";
import { approvalRuleKeys } from "./keys";

/** The counts move as requests arrive: the Rules page refreshes them this often while visible. */
export const RULES_REFETCH_INTERVAL_MS = 10_000;

/** A pool's rules in order with their last 24 hours (approvalRules/list), first rendered by the server. */
export function useRulesQuery(tenantId: string, poolId: string, initialRules: ListedRuleJson[]) {
  return useQuery({
    queryKey: approvalRuleKeys.list(tenantId, poolId),
    queryFn: async ({ signal }) => (await listRules({ tenantId, poolId }, signal)).rules,
    initialData: initialRules,
    refetchInterval: RULES_REFETCH_INTERVAL_MS,
    refetchIntervalInBackground: false,
  });
}
