import "server-only";
import type { Db } from "../db/client";
import { env } from "../env";
import { log } from "../log";
import { runRetention, type RetentionSettings } from "../retention/run-retention";
import type { BackgroundWorker } from "./background-worker";
import { everyInterval } from "./every-interval";

/**
 * Runs a retention pass every `intervalMs` (default BC_RETENTION_INTERVAL_SECONDS),
 * the first one at start. Several instances may run at once.
 */
export function startRetentionWorker(options: {
  db: Db;
  intervalMs?: number;
  clock?: () => Date;
  settings?: RetentionSettings;
  tenantId?: string;
}): BackgroundWorker {
  const intervalMs = options.intervalMs ?? env().BC_RETENTION_INTERVAL_SECONDS * 1000;
  const clock = options.clock ?? (() => new Date());
  return everyInterval(
    intervalMs,
    async () => {
      const result = await runRetention({ db: options.db, now: clock(), settings: options.settings, tenantId: options.tenantId });
      if (Object.values(result).some((count) => count > 0)) log.info("retention pass", { ...result });
    },
    (error) => log.error("retention pass failed", { error: String(error) }),
  );
}
