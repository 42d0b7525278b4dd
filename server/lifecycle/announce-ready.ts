import "server-only";
import cluster from "node:cluster";

/**
 * Tells `npm start`'s primary (scripts/serve.mjs) that this app process passed
 * its start-up checks and serves: from then on a death is a crash to restart
 * after a back-off, not a start that failed. Nothing to tell without a primary.
 */
export function announceReady(): void {
  if (cluster.isWorker) process.send?.({ type: "bc:ready" });
}
