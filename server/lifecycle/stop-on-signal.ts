import "server-only";
import cluster from "node:cluster";
import { log } from "../log";
import type { BackgroundWorker } from "../workers/background-worker";

/**
 * A clean stop of an app process that `npm start` forked: on SIGTERM/SIGINT
 * stop taking connections and finish the requests in flight (the cluster
 * worker's disconnect closes its servers, which waits for them), let the
 * background workers finish and record the webhook attempts in flight, then
 * exit 0. scripts/serve.mjs sets NEXT_MANUAL_SIG_HANDLE so that `next start`
 * leaves the signals to us: its own handler exits as soon as the HTTP server
 * has closed, cutting an attempt in flight short (it would be sent again after
 * its lease, but a clean stop should not need that).
 *
 * A plain `next start` keeps Next's handler; the workers are still told to
 * stop claiming, so at most the attempts already in flight are cut short.
 */
export function stopOnSignal(workers: Promise<BackgroundWorker | null>): void {
  const ownSignals = process.env.NEXT_MANUAL_SIG_HANDLE === "true" && cluster.isWorker;
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info("stopping: finishing the requests and webhook attempts in flight", { signal, pid: process.pid });
    const stopped = Promise.all([ownSignals ? closeServers() : undefined, workers.then((running) => running?.stop())]);
    if (!ownSignals) return;
    stopped.then(
      () => {
        log.info("stopped", { signal, pid: process.pid });
        process.exit(0);
      },
      (error: unknown) => {
        log.error("stop failed", { signal, error: String(error) });
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}

function closeServers(): Promise<void> {
  const worker = cluster.worker!;
  return new Promise((resolve) => {
    worker.once("disconnect", () => resolve());
    worker.disconnect();
  });
}
