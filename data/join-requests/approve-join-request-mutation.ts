"use client";
import type { z } from "zod";
import { approveJoinRequest } from "@/lib/api-client/join-requests";
import type { approveJoinRequestInput } from "@/lib/validations/join-requests";
import { useJoinRequestDecisionMutation, type DecisionCallbacks } from "./join-request-decision-mutation";

type Variables = z.input<typeof approveJoinRequestInput> & { tenantId: string };

/** Approves one request; lists refetch either way. */
export function useApproveJoinRequestMutation(options: DecisionCallbacks<Variables> = {}) {
  return useJoinRequestDecisionMutation<Variables>(approveJoinRequest, options);
}
