import "server-only";
import type { Db } from "../db/client";
import { env } from "../env";
import { deleteOldEvents } from "./delete-old-events";
import { deleteOldRequests } from "./delete-old-requests";
import { deleteOldSnapshots } from "./delete-old-snapshots";
import { deleteOldTpmChallenges } from "./delete-old-tpm-challenges";
import { deleteOldRuleHours } from "./delete-old-rule-hours";
import { deleteOldNotifications } from "./delete-old-notifications";
import { markExpiredRequests } from "./mark-expired-requests";
import { observeRetention } from "../metrics/observe";

export interface RetentionSettings {
  /** decided requests are deleted this many days after their last change */
  retentionDays: number;
  /** the events of deleted requests are kept this many days */
  eventRetentionDays: number;
  /** inventory snapshots are deleted this many days after they were taken, a node's latest never (SPEC G5) */
  inventoryRetentionDays: number;
}

export const retentionSettingsFromEnv = (): RetentionSettings => ({
  retentionDays: env().BC_RETENTION_DAYS,
  eventRetentionDays: env().BC_EVENT_RETENTION_DAYS,
  inventoryRetentionDays: env().BC_INVENTORY_RETENTION_DAYS,
});

export interface RetentionResult {
  marked: number;
  deletedRequests: number;
  deletedEvents: number;
  deletedTpmChallenges: number;
  deletedSnapshots: number;
  deletedRuleHours: number;
  deletedNotifications: number;
}

/**
 * One retention pass at `now` (injectable for tests): mark expired requests,
 * delete old decided ones, then the old events of deleted requests, and TPM
 * challenges a day past their expiry, and inventory snapshots past theirs
 * (each node's latest kept), and approval rules' hourly counts two days old,
 * and finished notification mails as old as the events kept. Safe on
 * several instances at once (SKIP LOCKED batches, conditional updates).
 */
export async function runRetention(input: {
  db: Db;
  now: Date;
  settings?: RetentionSettings;
  /** only this tenant's rows (tests share one database) */
  tenantId?: string;
}): Promise<RetentionResult> {
  const { db, now, tenantId } = input;
  const settings = input.settings ?? retentionSettingsFromEnv();
  const marked = await markExpiredRequests({ db, now, tenantId });
  const deletedRequests = await deleteOldRequests({ db, now, retentionDays: settings.retentionDays, tenantId });
  const deletedEvents = await deleteOldEvents({ db, now, eventRetentionDays: settings.eventRetentionDays, tenantId });
  const deletedTpmChallenges = await deleteOldTpmChallenges({ db, now, tenantId });
  const deletedSnapshots = await deleteOldSnapshots({ db, now, inventoryRetentionDays: settings.inventoryRetentionDays, tenantId });
  const deletedRuleHours = await deleteOldRuleHours({ db, now, tenantId });
  const deletedNotifications = await deleteOldNotifications({ db, now, eventRetentionDays: settings.eventRetentionDays, tenantId });
  const result = { marked, deletedRequests, deletedEvents, deletedTpmChallenges, deletedSnapshots, deletedRuleHours, deletedNotifications };
  observeRetention(result);
  return result;
}
