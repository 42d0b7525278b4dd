import type { z } from "zod";
import type { approveJoinRequestInput, listJoinRequestsInput, rejectJoinRequestInput } from "@/lib/validations/join-requests";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import type { ListJoinRequestsResponse } from "@/lib/api/responses/join-requests";
import { callMethod } from "./call-method";

// Typed calls of the published joinRequests methods (SPEC Part A). Inputs are
// the schemas' own input types: what the server parses is what we send.

export const listJoinRequests = (input: z.input<typeof listJoinRequestsInput>, signal?: AbortSignal) =>
  callMethod<ListJoinRequestsResponse>("joinRequests/list", input, signal);

export const approveJoinRequest = (input: z.input<typeof approveJoinRequestInput>) =>
  callMethod<JoinRequestJson>("joinRequests/approve", input);

export const rejectJoinRequest = (input: z.input<typeof rejectJoinRequestInput>) =>
  callMethod<JoinRequestJson>("joinRequests/reject", input);
