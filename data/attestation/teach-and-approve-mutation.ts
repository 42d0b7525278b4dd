"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiClientError } from "@/lib/api-client/api-client-error";
import { approveJoinRequest } from "@/lib/api-client/join-requests";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { joinRequestKeys } from "@/data/join-requests/keys";

/** What teaching the attestor did, in words ("fra1's inventory now knows it (created)"). */
export type TeachStep = () => Promise<string>;

export interface TeachAndApproveVariables {
  tenantId: string;
  teach: TeachStep;
  approve: Parameters<typeof approveJoinRequest>[0];
}

/** Which step failed, with the first step's result when it was the approval that failed. */
export class TeachAndApproveError extends ApiClientError {
  constructor(
    readonly step: "teach" | "approve",
    readonly taught: string | null,
    cause: ApiClientError,
  ) {
    super(cause.code, cause.message, cause.status, cause.details, cause.requestId);
  }
}

/**
 * "Trust this machine" / "Allow this TPM" (SPEC E3): teaches the attestor,
 * then approves the request, in that order; the lists refetch either way.
 * The machine's next fresh join is admitted by the attestor; this request's
 * retry by the approval.
 */
export function useTeachAndApproveMutation(options: { onSuccess?: (result: { taught: string; approved: JoinRequestJson }) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation<{ taught: string; approved: JoinRequestJson }, TeachAndApproveError, TeachAndApproveVariables>({
    mutationFn: async ({ teach, approve }) => {
      const taught = await teach().catch((error: ApiClientError) => {
        throw new TeachAndApproveError("teach", null, error);
      });
      const approved = await approveJoinRequest(approve).catch((error: ApiClientError) => {
        throw new TeachAndApproveError("approve", taught, error);
      });
      return { taught, approved };
    },
    onSettled: (_data, _error, variables) => queryClient.invalidateQueries({ queryKey: joinRequestKeys.tenant(variables.tenantId) }),
    onSuccess: (result) => options.onSuccess?.(result),
  });
}
