import type { z } from "zod";
import type { NotificationSettingsJson, PoolNotificationSettingJson, updateSettingsInput } from "@/lib/notifications/settings-schemas";
import { callMethod } from "./call-method";

// Typed calls of notifications/* (issue #39) the console's settings page makes.

export const getNotificationSettings = (signal?: AbortSignal) =>
  callMethod<NotificationSettingsJson>("notifications/getSettings", {}, signal);
export const updateNotificationSetting = (input: z.input<typeof updateSettingsInput>) =>
  callMethod<{ setting: PoolNotificationSettingJson }>("notifications/updateSettings", input);
