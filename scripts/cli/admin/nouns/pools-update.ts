import { z } from "zod";
import { parseAdminInput } from "@/server/admin/admin-error";
import { updatePoolSettings } from "@/server/admin/update-pool-settings";
import { approvalsRequiredInput } from "@/lib/validations/pools";
import { poolIdField } from "@/lib/validations/fields";
import { poolNotificationSettingsFields } from "@/lib/notifications/settings-schemas";
import { UsageError } from "../../shared/run-cli";
import { nounUsage, required, text, type AdminContext, type AdminNoun, type OptionValues } from "./admin-command";
import { printOutcome } from "./output";

// `pools update` (SPEC H1, issue #39): the same rules as pools/update, named by
// the pool alone. Each setting is an option; one left out stays as it is.

export const POOLS_UPDATE_SYNOPSIS =
  "--pool <poolId> [--approvals-required <1-5>] [--notify-default immediate|digest_15m|hourly|off] " +
  "[--escalate-after-minutes <N>|off] [--escalation-emails <a@x,b@y>|'']";

export const POOLS_UPDATE_OPTIONS = {
  pool: { type: "string" },
  "approvals-required": { type: "string" },
  "notify-default": { type: "string" },
  "escalate-after-minutes": { type: "string" },
  "escalation-emails": { type: "string" },
} as const;

const updateArguments = z.strictObject({
  poolId: poolIdField,
  approvalsRequired: approvalsRequiredInput.optional(),
  ...poolNotificationSettingsFields,
});

/** `off` turns escalation off (null); anything else must read as the number of minutes. */
const escalateAfter = (value: string | undefined) => (value === undefined ? undefined : value === "off" ? null : Number(value));

/** A comma-separated list; `''` clears it. */
const addressList = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(",")
        .map((address) => address.trim())
        .filter((address) => address !== "");

export async function updatePool(context: AdminContext, values: OptionValues, noun: AdminNoun): Promise<void> {
  const poolId = required(values, "pool", noun);
  const approvals = text(values, "approvals-required");
  const raw = {
    poolId,
    approvalsRequired: approvals === undefined ? undefined : Number(approvals),
    notifyDefault: text(values, "notify-default"),
    escalateAfterMinutes: escalateAfter(text(values, "escalate-after-minutes")),
    escalationEmails: addressList(text(values, "escalation-emails")),
  };
  if (Object.entries(raw).every(([key, value]) => key === "poolId" || value === undefined))
    throw new UsageError("give at least one setting to change", nounUsage(noun));
  const settings = parseAdminInput(updateArguments, raw);
  const result = await updatePoolSettings({ ...context, ...settings });
  printOutcome(context, result.outcome, `pool ${poolId} ${describe(settings)}`, { pool: result.pool });
}

/** What the settings asked for, in words: `requires 3 approvals; notifies hourly by default`. */
function describe(settings: z.output<typeof updateArguments>): string {
  const { approvalsRequired: count, notifyDefault, escalateAfterMinutes: minutes, escalationEmails: emails } = settings;
  return [
    count !== undefined && `requires ${count} approval${count === 1 ? "" : "s"}`,
    notifyDefault !== undefined && `notifies ${notifyDefault} by default`,
    minutes !== undefined && (minutes === null ? "escalates never" : `escalates after ${minutes} min`),
    emails !== undefined && (emails.length ? `escalates to ${emails.join(", ")}` : "escalates to no address"),
  ]
    .filter(Boolean)
    .join("; ");
}
