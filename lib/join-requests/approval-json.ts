import { z } from "zod";
import { timestamp } from "@/lib/wire/fields";
import { MAX_APPROVALS_REQUIRED } from "@/lib/validations/pools";

// SPEC H1: who approved a request, as every method and event returns it.

export const approvalJson = z.strictObject({
  by: z.string().meta({ description: "the approving principal's id (a user or a service key); each counts once" }),
  at: timestamp,
  ttlSeconds: z.number().int().meta({ description: "the ttlSeconds this approval asked for; the request gets the smallest" }),
});
export type ApprovalJson = z.infer<typeof approvalJson>;

export const approvalsRequiredField = z
  .number()
  .int()
  .min(1)
  .max(MAX_APPROVALS_REQUIRED)
  .meta({ description: "distinct principals whose approvals admit the request (SPEC H1)" });

export const approvalsField = z
  .array(approvalJson)
  .meta({ description: "the approvals given so far, oldest first; kept when the request is rejected or expires" });
