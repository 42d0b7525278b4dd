import { z } from "zod";
import { boundedInt, optional, poolIdField, tenantIdField } from "@/lib/validations/fields";

// Notification settings on the wire (issue #39): what a user who may decide a
// pool hears of its requests, the pool's default for those who have not
// chosen, and the pool's escalation. Shared by the methods, the reference and
// the console's forms.

export const NOTIFICATION_MODES = ["immediate", "digest_15m", "hourly", "off"] as const;
export type NotificationMode = (typeof NOTIFICATION_MODES)[number];

export const notificationModeField = z.enum(NOTIFICATION_MODES, { error: `must be one of ${NOTIFICATION_MODES.join(", ")}` });

/** A week: a request still pending after longer has expired long before (SPEC B1's longest ttl is shorter). */
export const MAX_ESCALATE_AFTER_MINUTES = 10_080;
export const MAX_ESCALATION_EMAILS = 20;

// RFC 5321's longest path; zod's email check is the practical subset of RFC 5322 mail clients accept.
const emailAddress = z
  .string({ error: "must be a string" })
  .max(254, { error: "must be at most 254 characters" })
  .pipe(z.email({ error: "must be an email address" }));

/** An email address list as stored: lowercased, each once, in the order first given. */
export const escalationEmailsField = z
  .array(emailAddress, { error: "must be a list of email addresses" })
  .max(MAX_ESCALATION_EMAILS, { error: `must hold at most ${MAX_ESCALATION_EMAILS} addresses` })
  .transform((emails) => [...new Set(emails.map((email) => email.toLowerCase()))]);

/**
 * pools/update's notification settings (tenant-admins). Omitted: unchanged.
 * `escalateAfterMinutes: null` is a value here (escalation off), not "the
 * default", so it is not read through `optional`.
 */
export const poolNotificationSettingsFields = {
  notifyDefault: optional(notificationModeField),
  escalateAfterMinutes: boundedInt(1, MAX_ESCALATE_AFTER_MINUTES)
    .nullable()
    .optional()
    .meta({ description: "minutes a request waits before the escalation list hears of it; null: no escalation" }),
  escalationEmails: optional(escalationEmailsField),
};

export const getSettingsInput = z.strictObject({});

export const updateSettingsInput = z.strictObject({
  tenantId: tenantIdField,
  poolId: poolIdField,
  mode: z
    .enum(NOTIFICATION_MODES, {
      error: (issue) =>
        issue.input === undefined
          ? "is required (null: back to the pool's default)"
          : `must be one of ${NOTIFICATION_MODES.join(", ")} or null`,
    })
    .nullable()
    .meta({ description: "null: back to the pool's default" }),
});

export const poolNotificationSettingJson = z.strictObject({
  tenantId: z.string(),
  poolId: z.string(),
  poolName: z.string(),
  siteId: z.string(),
  /** what the caller hears: their own choice, or the pool's default */
  mode: notificationModeField,
  source: z.enum(["mine", "pool-default"]),
  poolDefault: notificationModeField,
});
export type PoolNotificationSettingJson = z.infer<typeof poolNotificationSettingJson>;

export const getSettingsResponse = z.strictObject({
  email: z.string(),
  /** false: no mail server is configured (BC_SMTP_URL), so no mail is sent */
  mailConfigured: z.boolean(),
  pools: z.array(poolNotificationSettingJson),
});
export type NotificationSettingsJson = z.infer<typeof getSettingsResponse>;

export const updateSettingsResponse = z.strictObject({ setting: poolNotificationSettingJson });
