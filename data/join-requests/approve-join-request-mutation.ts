"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { approveJoinRequest } from "@/lib/api-client/join-requests";
import type { ApiClientError } from "@/lib/api-client/api-client-error";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import type { approveJoinRequestInput } from "@/lib/validations/join-requests";
import { joinRequestKeys } from "./keys";

type Variables = z.input<typeof approveJoinRequestInput> & { tenantId: string };

/**
 * Approves one request. Success or failure, the tenant's lists are refetched:
 * a failure is usually someone else deciding first, and the row should show it.
 */
export function useApproveJoinRequestMutation(options: {
  onSuccess?: (request: JoinRequestJson, variables: Variables) => void;
  onError?: (error: ApiClientError, variables: Variables) => void;
} = {}) {
  const queryClient = useQueryClient();
  return useMutation<JoinRequestJson, ApiClientError, Variables>({
    mutationFn: (variables) => approveJoinRequest(variables),
    onSuccess: async (request, variables) => {
      await queryClient.invalidateQueries({ queryKey: joinRequestKeys.tenant(variables.tenantId) });
      options.onSuccess?.(request, variables);
    },
    onError: async (error, variables) => {
      await queryClient.invalidateQueries({ queryKey: joinRequestKeys.tenant(variables.tenantId) });
      options.onError?.(error, variables);
    },
  });
}
