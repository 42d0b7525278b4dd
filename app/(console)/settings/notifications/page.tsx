import { NotificationSettingsList } from "@/components/notifications/notification-settings-list";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { env } from "@/server/env";
import { getNotificationSettings } from "@/server/notification-settings/get-notification-settings";
import { mailConfigured } from "@/server/notification-settings/mail-configured";

export const metadata = { title: "Your notification settings — Better Compute" };

// Issue #39: what the signed-in user hears, per pool they may decide, as
// notifications/getSettings answers it (the first render here; changes go
// through notifications/updateSettings from the browser).
export default async function NotificationSettingsPage() {
  const { principal } = await requireUser("/settings/notifications");
  const settings = await getNotificationSettings({ db: await getDb(), principal, mailConfigured: mailConfigured(env()) });
  return (
    <>
      <h1>Your notification settings</h1>
      <NotificationSettingsList initialSettings={settings} />
    </>
  );
}
