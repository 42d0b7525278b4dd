"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { rejectJoinRequest } from "@/lib/api-client/join-requests";
import type { ApiClientError } from "@/lib/api-client/api-client-error";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import type { rejectJoinRequestInput } from "@/lib/validations/join-requests";
import { joinRequestKeys } from "./keys";

type Variables = z.input<typeof rejectJoinRequestInput> & { tenantId: string };

/** Rejects a pending request or withdraws an approval; lists refetch either way. */
export function useRejectJoinRequestMutation(options: {
  onSuccess?: (request: JoinRequestJson, variables: Variables) => void;
  onError?: (error: ApiClientError, variables: Variables) => void;
} = {}) {
  const queryClient = useQueryClient();
  return useMutation<JoinRequestJson, ApiClientError, Variables>({
    mutationFn: (variables) => rejectJoinRequest(variables),
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
