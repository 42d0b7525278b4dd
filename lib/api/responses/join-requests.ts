import { z } from "zod";
import { joinRequestJson } from "@/lib/join-requests/join-request-json";
import { nextCursor } from "@/lib/wire/fields";

// What the joinRequests methods answer (SPEC B2); approve and reject return the request itself.
export const listJoinRequestsResponse = z.strictObject({ joinRequests: z.array(joinRequestJson), nextCursor });
export type ListJoinRequestsResponse = z.infer<typeof listJoinRequestsResponse>;
