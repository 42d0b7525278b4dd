import "server-only";
import { getDb, type Db } from "../db/client";
import { env } from "../env";
import { log } from "../log";
import { DEFAULT_RETRY_POLICY } from "../webhooks/backoff";
import { startDeliveryWorker } from "../webhooks/delivery-worker";
import { startMailNotifications } from "../notifications/start-mail-notifications";
import type { BackgroundWorker } from "../workers/background-worker";
import { startRetentionWorker } from "../workers/retention-worker";
import { startRulesSweepWorker } from "../workers/rules-sweep-worker";

/** The background workers (webhook delivery, mail notifications, retention, the approval rules sweep) on one database. */
export function startWorkers(db: Db): BackgroundWorker {
  const { BC_WEBHOOK_TIMEOUT_MS, BC_WEBHOOK_LEASE_MS, BC_WEBHOOK_RETRY_BASE_MS } = env();
  const delivery = startDeliveryWorker({
    db,
    timeoutMs: BC_WEBHOOK_TIMEOUT_MS,
    leaseMs: BC_WEBHOOK_LEASE_MS,
    policy: { ...DEFAULT_RETRY_POLICY, baseMs: BC_WEBHOOK_RETRY_BASE_MS },
  });
  const workers = [delivery, startMailNotifications({ db }), startRetentionWorker({ db }), startRulesSweepWorker({ db })];
  return {
    async stop() {
      await Promise.all(workers.map((worker) => worker.stop()));
    },
  };
}

const registry = globalThis as typeof globalThis & { __betterComputeWorkers?: Promise<BackgroundWorker | null> };

/**
 * The app process's workers, started at most once per process (instrumentation's
 * register(); the guard lives on globalThis so a dev hot reload that runs it
 * again starts nothing new). Not started with BC_WORKERS=off.
 */
export function startWorkersOnce(
  options: { enabled?: boolean; start?: (db: Db) => BackgroundWorker } = {},
): Promise<BackgroundWorker | null> {
  registry.__betterComputeWorkers ??= (async () => {
    if (!(options.enabled ?? env().BC_WORKERS === "on")) {
      log.info("background workers are off (BC_WORKERS=off)");
      return null;
    }
    const workers = (options.start ?? startWorkers)(await getDb());
    log.info("background workers started: webhook delivery, mail notifications, retention, approval rules sweep", { pid: process.pid });
    return workers;
  })().catch((error: unknown) => {
    log.error("background workers did not start", { error: String(error) });
    return null;
  });
  return registry.__betterComputeWorkers;
}
