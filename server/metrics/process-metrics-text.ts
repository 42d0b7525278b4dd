import "server-only";
import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import { processMetrics } from "./process-metrics";

// Behind `npm start` one port is shared by several app processes and a scrape
// reaches any one of them, so per-process series would come and go between
// scrapes (Prometheus would mark them stale). Instead the process answering
// asks the primary (scripts/serve.mjs), which asks every app process for its
// registry's snapshot and sums the freshest it has within half a second
// (scripts/serve/cluster-metrics.mjs, with prom-client's aggregation), keeping
// what exited processes counted. Each host is then one target; Prometheus's
// `instance` label tells hosts apart.

/** The message types of scripts/serve.mjs and scripts/serve/cluster-metrics.mjs (plain JS: keep in step). */
export const METRICS_REQUEST = "bc:metrics-request";
export const METRICS_RESPONSE = "bc:metrics-response";
export const METRICS_COLLECT = "bc:metrics-collect";
export const METRICS_SNAPSHOT = "bc:metrics-snapshot";
// the primary answers within half a second (it sums the snapshots it has then); more is a primary in trouble
const TIMEOUT_MS = 2_000;

interface MetricsResponse {
  type: typeof METRICS_RESPONSE;
  id: string;
  text?: string;
  error?: string;
}

// Once per process, like the registry (Next may evaluate this module in several chunks).
const state = globalThis as typeof globalThis & {
  __betterComputeMetricsIpc?: { pending: Map<string, (response: MetricsResponse) => void> };
};

/**
 * At start: makes the registry (the default process metrics sample from now)
 * and, under `npm start`, answers the primary's requests for this process's
 * metrics and routes its answers to ours. Once per process.
 */
export function startProcessMetrics(): void {
  processMetrics();
  if (state.__betterComputeMetricsIpc || !cluster.isWorker) return;
  const pending = new Map<string, (response: MetricsResponse) => void>();
  state.__betterComputeMetricsIpc = { pending };
  process.on("message", (message: unknown) => {
    const received = message as { type?: unknown; id?: unknown } | null;
    // the primary collecting every process's snapshot for a scrape
    if (received?.type === METRICS_COLLECT) void sendSnapshot(received.id);
    if (received?.type !== METRICS_RESPONSE || typeof received.id !== "string") return;
    pending.get(received.id)?.(received as MetricsResponse);
  });
}

/** This process's metrics, or every app process's summed when it runs under `npm start`. */
export async function processMetricsText(): Promise<string> {
  const send = process.send?.bind(process);
  if (!cluster.isWorker || !send) return processMetrics().registry.metrics();
  startProcessMetrics();
  const pending = state.__betterComputeMetricsIpc!.pending;
  const id = randomUUID();
  const response = await new Promise<MetricsResponse>((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error("the primary did not send the app processes' metrics in time"));
    }, TIMEOUT_MS);
    pending.set(id, (answer) => {
      clearTimeout(timer);
      pending.delete(id);
      resolve(answer);
    });
    send({ type: METRICS_REQUEST, id });
  });
  if (response.error !== undefined || response.text === undefined) throw new Error(`aggregating metrics failed: ${response.error}`);
  return response.text;
}

async function sendSnapshot(id: unknown): Promise<void> {
  const metrics = await processMetrics().registry.getMetricsAsJSON();
  if (process.connected) process.send?.({ type: METRICS_SNAPSHOT, id, metrics });
}
