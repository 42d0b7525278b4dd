import { z } from "zod";
import { boundedInt, optional, poolIdField, tenantIdField } from "./fields";
import { bootStatesField } from "@/lib/pools/boot-states";

// SPEC H1, I2: a pool's settings, changed by a tenant-admin (pools/update, and
// `npm run admin -- pools update`). Each setting is optional: what is omitted stays.

/** SPEC H1: at most five distinct approvers. */
export const MAX_APPROVALS_REQUIRED = 5;

export const approvalsRequiredInput = boundedInt(1, MAX_APPROVALS_REQUIRED);

export const updatePoolInput = z.strictObject({
  tenantId: tenantIdField,
  poolId: poolIdField,
  approvalsRequired: optional(approvalsRequiredInput),
  // SPEC I2: the whole list (it replaces the pool's), and whether a join must match one
  bootStates: optional(bootStatesField),
  requireKnownBoot: optional(z.boolean({ error: "must be true or false" })),
});
export type UpdatePoolInput = z.output<typeof updatePoolInput>;
