import "server-only";
import type { Db } from "../db/client";
import { env } from "../env";
import { log } from "../log";
import { runRetention, type RetentionSettings } from "../retention/run-retention";
import type { BackgroundWorker } from "./background-worker";
import { napper } from "./nap";

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
  const sleep = napper();
  let stopping = false;
  const loop = (async () => {
    while (!stopping) {
      try {
        const result = await runRetention({ db: options.db, now: clock(), settings: options.settings, tenantId: options.tenantId });
        if (result.marked || result.deletedRequests || result.deletedEvents || result.deletedTpmChallenges)
          log.info("retention pass", { ...result });
      } catch (error) {
        log.error("retention pass failed", { error: String(error) });
      }
      if (!stopping) await sleep.nap(intervalMs);
    }
  })();
  return {
    async stop() {
      stopping = true;
      sleep.wake();
      await loop;
    },
  };
}
