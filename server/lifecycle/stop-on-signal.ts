import "server-only";
import cluster from "node:cluster";
import { log } from "../log";
import type { BackgroundWorker } from "../workers/background-worker";
import type { Tracing } from "../tracing/start-tracing";

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
 * With tracing on, the spans still queued are sent once the servers have
 * closed (the requests in flight have ended their spans by then).
 *
 * A plain `next start` keeps Next's handler; the workers are still told to
 * stop claiming, so at most the attempts already in flight are cut short, and
 * the queued spans are sent at once, as far as the exit lets them.
 */
export function stopOnSignal(workers: Promise<BackgroundWorker | null>, tracing: Tracing | null = null): void {
  const ownSignals = process.env.NEXT_MANUAL_SIG_HANDLE === "true" && cluster.isWorker;
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info("stopping: finishing the requests and webhook attempts in flight", { signal, pid: process.pid });
    const serversClosed = ownSignals ? closeServers() : Promise.resolve();
    const stopped = Promise.all([serversClosed.then(() => stopTracing(tracing)), workers.then((running) => running?.stop())]);
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

/** A collector that is down must not turn a clean stop into a failed one: its spans are lost, the stop goes on. */
async function stopTracing(tracing: Tracing | null): Promise<void> {
  await tracing?.shutdown().catch((error: unknown) => log.warn("tracing: the last spans were not sent", { error: String(error) }));
}

function closeServers(): Promise<void> {
  const worker = cluster.worker!;
  return new Promise((resolve) => {
    worker.once("disconnect", () => resolve());
    worker.disconnect();
  });
}
