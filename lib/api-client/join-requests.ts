import type { z } from "zod";
import type {
  approveJoinRequestInput,
  listJoinRequestsInput,
  rejectJoinRequestInput,
} from "@/lib/validations/join-requests";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { callMethod } from "./call-method";

// Typed calls of the published joinRequests methods (SPEC Part A). Inputs are
// the schemas' own input types: what the server parses is what we send.

export interface ListJoinRequestsResponse {
  joinRequests: JoinRequestJson[];
  /** present only when more requests follow */
  nextCursor?: string;
}

export const listJoinRequests = (input: z.input<typeof listJoinRequestsInput>, signal?: AbortSignal) =>
  callMethod<ListJoinRequestsResponse>("joinRequests/list", input, signal);

export const approveJoinRequest = (input: z.input<typeof approveJoinRequestInput>) =>
  callMethod<JoinRequestJson>("joinRequests/approve", input);

export const rejectJoinRequest = (input: z.input<typeof rejectJoinRequestInput>) =>
  callMethod<JoinRequestJson>("joinRequests/reject", input);
