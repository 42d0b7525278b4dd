"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ApiClientError } from "@/lib/api-client/api-client-error";
import { approvalRuleKeys } from "./keys";

/**
 * One change of a pool's rules (create, update, delete, reorder): the
 * change's call, then the pool's list refetched, then the caller's onSuccess.
 * Each change's hook (beside this file) names its call.
 */
export function useRuleChangeMutation<Input, Output>(
  scope: { tenantId: string; poolId: string; verb: string },
  call: (input: Input) => Promise<Output>,
  options: { onSuccess?: (output: Output) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation<Output, ApiClientError, Input>({
    mutationKey: [...approvalRuleKeys.pool(scope.tenantId, scope.poolId), scope.verb],
    mutationFn: call,
    onSuccess: async (output) => {
      await queryClient.invalidateQueries({ queryKey: approvalRuleKeys.list(scope.tenantId, scope.poolId) });
      options.onSuccess?.(output);
    },
  });
}
