"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { approveJoinRequest, rejectJoinRequest } from "@/lib/api-client/join-requests";
import { isApiClientError } from "@/lib/api-client/api-client-error";
import { joinRequestKeys } from "./keys";

export type BulkDecision = "approve" | "reject";

interface Variables {
  decision: BulkDecision;
  tenantId: string;
  poolId: string;
  requestIds: string[];
  ttlSeconds?: number;
  reason?: string;
}

export type BulkRowResult = { requestId: string; ok: true } | { requestId: string; ok: false; code: string; message: string };

/**
 * Approves or rejects several requests with one TTL and reason, one call per
 * request (the API has no batch method), and reports each row's outcome
 * rather than stopping at the first failure.
 */
export function useDecideJoinRequestsMutation(options: { onSuccess?: (results: BulkRowResult[], variables: Variables) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation<BulkRowResult[], Error, Variables>({
    mutationFn: async ({ decision, tenantId, poolId, requestIds, ttlSeconds, reason }) => {
      const results: BulkRowResult[] = [];
      for (const requestId of requestIds) {
        try {
          if (decision === "approve") await approveJoinRequest({ tenantId, poolId, requestId, ttlSeconds, reason });
          else await rejectJoinRequest({ tenantId, poolId, requestId, reason });
          results.push({ requestId, ok: true });
        } catch (error) {
          if (!isApiClientError(error)) throw error;
          results.push({ requestId, ok: false, code: error.code, message: error.message });
        }
      }
      return results;
    },
    onSettled: (_results, _error, variables) => queryClient.invalidateQueries({ queryKey: joinRequestKeys.tenant(variables.tenantId) }),
    onSuccess: (results, variables) => options.onSuccess?.(results, variables),
  });
}
