import "server-only";
import { getSettingsInput, getSettingsResponse, updateSettingsInput, updateSettingsResponse } from "@/lib/notifications/settings-schemas";
import { DECIDE_PERMISSION } from "../auth/roles";
import { env } from "../env";
import { getNotificationSettings } from "../notification-settings/get-notification-settings";
import { mailConfigured } from "../notification-settings/mail-configured";
import { refuseServiceKeys } from "../notification-settings/refuse-service-keys";
import { updateNotificationSetting } from "../notification-settings/update-notification-setting";
import { defineCallerMethod, definePoolMethod } from "./define-method";

// Issue #39: a user's own notification settings, per pool they may decide.
// A pool's default and escalation are pools/update's (tenant-admins).
const common = { phase: "v0.7", status: "registered", module: "server" } as const;
const serviceKeysRefused = "A service key has no mailbox: it is `PERMISSION_DENIED`, saying so.";

export const getSettingsMethod = defineCallerMethod({
  ...common,
  name: "notifications/getSettings",
  kind: "read",
  callers: "the caller, about themselves (a signed-in user)",
  summary:
    "The caller's own notification settings: for each pool they may decide, what they hear of its join requests and whether it is " +
    "their choice or the pool's default; their address, and whether mail is sent at all.",
  description:
    "A pool is listed where the caller holds `compute:join-tokens:create` (`pool-admin` on it or on every pool of its tenant, " +
    "`tenant-admin`); pools they only view and archived pools are not. `mode` is `immediate`, `digest_15m` (a digest every 15 " +
    "minutes), `hourly` or `off`; `source` is `mine` or `pool-default`. `mailConfigured` is false while no mail server is " +
    `configured (\`BC_SMTP_URL\`): then nothing is sent. ${serviceKeysRefused}`,
  input: getSettingsInput,
  responses: { 200: getSettingsResponse },
  handler: async ({ db, principal }) => {
    refuseServiceKeys(principal);
    return getNotificationSettings({ db, principal, mailConfigured: mailConfigured(env()) });
  },
});

export const updateSettingsMethod = definePoolMethod({
  ...common,
  resource: "compute-pool",
  name: "notifications/updateSettings",
  kind: "mutation",
  permission: DECIDE_PERMISSION,
  summary: "Sets what the caller hears of one pool's join requests: `mode`, or null to go back to the pool's default.",
  description:
    "Only for a pool the caller may decide: without a grant covering it, `PERMISSION_DENIED` whether or not it exists; a pool of " +
    `another tenant is \`NOT_FOUND\`. Answers the pool's entry as \`getSettings\` lists it. ${serviceKeysRefused}`,
  input: updateSettingsInput,
  responses: { 200: updateSettingsResponse },
  handler: async ({ db, pool, input, principal, now }) => {
    refuseServiceKeys(principal);
    return { setting: await updateNotificationSetting({ db, userId: principal.id, pool, mode: input.mode, now }) };
  },
});
