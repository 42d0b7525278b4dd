// The primary's half of GET /metrics under `npm start` (scripts/serve.mjs):
// the sum of every app process's metrics, answered at once and never going
// backwards.
//
// prom-client's AggregatorRegistry.clusterMetrics() asks every process and
// fails the whole scrape after 5 s if one does not answer — which a process
// just forked (not yet listening for the question) or dying never does, so a
// scrape right after start was a 503 after 5 s. Here each process's last
// answer is kept: a scrape waits at most `waitMs` for fresh ones, then sums
// the freshest it has. And when a process exits, its counters and histograms
// are kept (retired) and added to every later sum, so a counter the host
// reports never drops when one process is replaced; its gauges go with it.
// Plain JavaScript: production runs it without the TypeScript toolchain.
import promClient from "prom-client";

/** The messages between the primary and an app process (server/metrics/process-metrics-text.ts: keep in step). */
export const COLLECT = "bc:metrics-collect";
export const SNAPSHOT = "bc:metrics-snapshot";

const KEPT_AFTER_EXIT = new Set(["counter", "histogram"]);

/**
 * @param {{ workers: () => Array<{ id: number, isConnected(): boolean, send(message: unknown): unknown }>, waitMs?: number }} options
 */
export function clusterMetrics({ workers, waitMs = 500 }) {
  /** worker id → its last snapshot (prom-client's getMetricsAsJSON()) */
  const latest = new Map();
  /** the counters and histograms of processes that exited: snapshots, merged into one in the background */
  const retired = [];
  let merging = Promise.resolve();
  /** collect id → called with each worker id that answers it */
  const collecting = new Map();
  let nextId = 0;

  return {
    /** A process's message: a snapshot it sent, in answer to a collect. */
    onMessage(worker, message) {
      if (message?.type !== SNAPSHOT || !Array.isArray(message.metrics)) return;
      // one that arrives after its process exited would count twice: its exit retired the last one
      if (!worker.isConnected()) return;
      latest.set(worker.id, message.metrics);
      collecting.get(message.id)?.(worker.id);
    },

    /**
     * A process exited: what it counted stays counted. Its snapshot moves to
     * `retired` at once (a scrape meanwhile still sees it); merges run one
     * after another, each replacing the snapshots it merged, so a crash loop
     * keeps one snapshot, not one per crash.
     */
    onExit(worker) {
      const last = latest.get(worker.id);
      latest.delete(worker.id);
      if (!last) return merging;
      retired.push(last.filter((metric) => KEPT_AFTER_EXIT.has(metric.type)));
      merging = merging.then(async () => {
        const count = retired.length;
        if (count < 2) return;
        const merged = await promClient.AggregatorRegistry.aggregate(retired.slice(0, count)).getMetricsAsJSON();
        retired.splice(0, count, merged);
      });
      return merging;
    },

    /** Every process's metrics summed, as Prometheus text: fresh from those that answer within waitMs. */
    async text() {
      const id = ++nextId;
      const asked = new Set();
      for (const worker of workers()) {
        if (!worker.isConnected()) continue;
        asked.add(worker.id);
        worker.send({ type: COLLECT, id });
      }
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        const settle = () => {
          clearTimeout(timer);
          resolve();
        };
        collecting.set(id, (workerId) => {
          asked.delete(workerId);
          if (asked.size === 0) settle();
        });
        if (asked.size === 0) settle();
      });
      collecting.delete(id);
      return promClient.AggregatorRegistry.aggregate([...latest.values(), ...retired]).metrics();
    },
  };
}
