import "server-only";
import type { Db } from "../db/client";
import { log } from "../log";
import { sweepUnevaluatedRequests } from "../approval-rules/sweep-unevaluated-requests";
import type { BackgroundWorker } from "./background-worker";
import { everyInterval } from "./every-interval";

/**
 * SPEC H2: runs the rules sweep every `intervalMs` (default 15 s), the first
 * at start, so a request deferred just before a crash has its rules run soon
 * after the app is back. Several instances may run at once.
 */
export function startRulesSweepWorker(options: { db: Db; intervalMs?: number; clock?: () => Date }): BackgroundWorker {
  const clock = options.clock ?? (() => new Date());
  return everyInterval(
    options.intervalMs ?? 15_000,
    async () => {
      const counts = await sweepUnevaluatedRequests({ db: options.db, now: clock() });
      if (Object.values(counts).some((count) => count > 0)) log.info("approval rules sweep", { ...counts });
    },
    (error) => log.error("approval rules sweep failed", { error: String(error) }),
  );
}
