"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ApiClientError } from "@/lib/api-client/api-client-error";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { joinRequestKeys } from "./keys";

export interface DecisionCallbacks<Variables> {
  onSuccess?: (request: JoinRequestJson, variables: Variables) => void;
  onError?: (error: ApiClientError, variables: Variables) => void;
}

/**
 * One decision on one request (approve or reject). Success or failure, the
 * tenant's lists are refetched: a failure is usually someone else deciding
 * first, and the row should show it.
 */
export function useJoinRequestDecisionMutation<Variables extends { tenantId: string }>(
  decide: (variables: Variables) => Promise<JoinRequestJson>,
  options: DecisionCallbacks<Variables>,
) {
  const queryClient = useQueryClient();
  const refetchLists = (variables: Variables) => queryClient.invalidateQueries({ queryKey: joinRequestKeys.tenant(variables.tenantId) });
  return useMutation<JoinRequestJson, ApiClientError, Variables>({
    mutationFn: decide,
    onSuccess: async (request, variables) => {
      await refetchLists(variables);
      options.onSuccess?.(request, variables);
    },
    onError: async (error, variables) => {
      await refetchLists(variables);
      options.onError?.(error, variables);
    },
  });
}
