import { z } from "zod";
import { parseAdminInput } from "@/server/admin/admin-error";
import { updatePoolSettings } from "@/server/admin/update-pool-settings";
import { approvalsRequiredInput } from "@/lib/validations/pools";
import { poolIdField } from "@/lib/validations/fields";
import { required, type AdminContext, type AdminNoun, type OptionValues } from "./admin-command";
import { printOutcome } from "./output";

// `pools update` (SPEC H1): the same rule as pools/update, named by the pool alone.
const updateArguments = z.strictObject({ poolId: poolIdField, approvalsRequired: approvalsRequiredInput });

export async function updatePool(context: AdminContext, values: OptionValues, noun: AdminNoun): Promise<void> {
  const { poolId, approvalsRequired } = parseAdminInput(updateArguments, {
    poolId: required(values, "pool", noun),
    approvalsRequired: Number(required(values, "approvals-required", noun)),
  });
  const result = await updatePoolSettings({ ...context, poolId, approvalsRequired });
  printOutcome(context, result.outcome, `pool ${poolId} requires ${approvalsRequired} approval${approvalsRequired === 1 ? "" : "s"}`, {
    pool: result.pool,
  });
}
