"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { approveJoinRequest, rejectJoinRequest } from "@/lib/api-client/join-requests";
import { isApiClientError } from "@/lib/api-client/api-client-error";
import type { JoinRequestState } from "@/lib/validations/join-requests";
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

/** A row's outcome: the request's state after the call (SPEC H1: an approval below the count leaves it pending), or the error. */
export type BulkRowResult =
  | { requestId: string; ok: true; state: JoinRequestState; missing: number }
  | { requestId: string; ok: false; code: string; message: string };

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
          const request =
            decision === "approve"
              ? await approveJoinRequest({ tenantId, poolId, requestId, ttlSeconds, reason })
              : await rejectJoinRequest({ tenantId, poolId, requestId, reason });
          const missing = request.state === "pending" ? Math.max(0, request.approvalsRequired - request.approvals.length) : 0;
          results.push({ requestId, ok: true, state: request.state, missing });
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
