import { NotificationSettingsList } from "@/components/notifications/notification-settings-list";
import { RecentMailTable } from "@/components/notifications/recent-mail-table";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { env } from "@/server/env";
import { getNotificationSettings } from "@/server/notification-settings/get-notification-settings";
import { listNotificationDeliveries } from "@/server/notifications/list-notification-deliveries";
import { mailConfigured } from "@/server/notification-settings/mail-configured";

/** The delivery log's most recent entries shown to the user (all of it: the operator's `notifications deliveries`). */
const RECENT_MAIL = 20;

export const metadata = { title: "Your notification settings — Better Compute" };

// Issue #39: what the signed-in user hears, per pool they may decide, as
// notifications/getSettings answers it (the first render here; changes go
// through notifications/updateSettings from the browser).
export default async function NotificationSettingsPage() {
  const { principal } = await requireUser("/settings/notifications");
  const db = await getDb();
  const [settings, recentMail] = await Promise.all([
    getNotificationSettings({ db, principal, mailConfigured: mailConfigured(env()) }),
    principal.kind === "user" ? listNotificationDeliveries(db, { userId: principal.id, limit: RECENT_MAIL }) : [],
  ]);
  return (
    <>
      <h1>Your notification settings</h1>
      <NotificationSettingsList initialSettings={settings} />
      <section aria-labelledby="recent-mail" data-testid="recent-mail">
        <h2 id="recent-mail">Mail to you</h2>
        {recentMail.length ? <RecentMailTable entries={recentMail} /> : <p className="muted">No notification has been made for you yet.</p>}
      </section>
    </>
  );
}
