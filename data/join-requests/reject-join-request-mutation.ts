"use client";
import type { z } from "zod";
import { rejectJoinRequest } from "@/lib/api-client/join-requests";
import type { rejectJoinRequestInput } from "@/lib/validations/join-requests";
import { useJoinRequestDecisionMutation, type DecisionCallbacks } from "./join-request-decision-mutation";

type Variables = z.input<typeof rejectJoinRequestInput> & { tenantId: string };

/** Rejects a pending request or withdraws an approval; lists refetch either way. */
export function useRejectJoinRequestMutation(options: DecisionCallbacks<Variables> = {}) {
  return useJoinRequestDecisionMutation<Variables>(rejectJoinRequest, options);
}
