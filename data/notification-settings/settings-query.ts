"use client";
import { useQuery } from "@tanstack/react-query";
import { getNotificationSettings } from "@/lib/api-client/notifications";
import type { NotificationSettingsJson } from "@/lib/notifications/settings-schemas";
import { notificationSettingKeys } from "./keys";

/** The signed-in user's settings (notifications/getSettings), first rendered by the server. */
export function useNotificationSettingsQuery(initialSettings: NotificationSettingsJson) {
  return useQuery({
    queryKey: notificationSettingKeys.mine(),
    queryFn: ({ signal }) => getNotificationSettings(signal),
    initialData: initialSettings,
  });
}
