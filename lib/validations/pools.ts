import { z } from "zod";
import { boundedInt, optional, poolIdField, tenantIdField } from "./fields";

// SPEC H1: a pool's settings, changed by a tenant-admin (pools/update, and
// `npm run admin -- pools update`). Each setting is optional: what is omitted stays.

/** SPEC H1: at most five distinct approvers. */
export const MAX_APPROVALS_REQUIRED = 5;

export const approvalsRequiredInput = boundedInt(1, MAX_APPROVALS_REQUIRED);

export const updatePoolInput = z.strictObject({
  tenantId: tenantIdField,
  poolId: poolIdField,
  approvalsRequired: optional(approvalsRequiredInput),
});
export type UpdatePoolInput = z.output<typeof updatePoolInput>;
