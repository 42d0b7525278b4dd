"use client";
import { EmptyState } from "@/components/ui/empty-state";
import { useNotificationSettingsQuery } from "@/data/notification-settings/settings-query";
import type { NotificationSettingsJson } from "@/lib/notifications/settings-schemas";
import { MailNotConfigured } from "./mail-not-configured";
import { PoolModeChoice } from "./pool-mode-choice";
import styles from "./notification-settings.module.css";

/** The signed-in user's notification settings: a row for each pool they may decide. */
export function NotificationSettingsList({ initialSettings }: { initialSettings: NotificationSettingsJson }) {
  const { data: settings } = useNotificationSettingsQuery(initialSettings);
  return (
    <>
      {settings.mailConfigured ? null : <MailNotConfigured />}
      <p className="muted">
        Mail goes to <strong data-testid="notification-email">{settings.email}</strong>. Choose, per pool, when you hear of join requests
        waiting for a decision; a pool&apos;s default applies until you choose.
      </p>
      {settings.pools.length === 0 ? (
        <EmptyState testId="no-notification-pools">
          <p>
            <strong>No pools to hear from.</strong>
          </p>
          <p className="muted">Notifications go to those who may decide a pool&apos;s requests: pool admins and tenant admins.</p>
        </EmptyState>
      ) : (
        <ul className={styles.rows} aria-label="Notifications per pool">
          {settings.pools.map((setting) => (
            <PoolModeChoice key={setting.poolId} setting={setting} />
          ))}
        </ul>
      )}
    </>
  );
}
