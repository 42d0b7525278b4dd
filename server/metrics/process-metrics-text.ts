import "server-only";
import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import { AggregatorRegistry } from "prom-client";
import { processMetrics } from "./process-metrics";

// Behind `npm start` one port is shared by several app processes and a scrape
// reaches any one of them, so per-process series would come and go between
// scrapes (Prometheus would mark them stale). Instead the process answering
// asks the primary (scripts/serve.mjs), which sums every app process's
// metrics with prom-client's AggregatorRegistry — the same IPC messages
// prom-client's cluster support uses — and sends the text back. Each host is
// then one target; Prometheus's `instance` label tells hosts apart.

/** The message types scripts/serve.mjs answers (plain JS: keep in step). */
export const METRICS_REQUEST = "bc:metrics-request";
export const METRICS_RESPONSE = "bc:metrics-response";
const TIMEOUT_MS = 6_000; // the primary waits up to 5 s for every app process

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
  // Answers the primary's prom-client requests with this process's registry.
  AggregatorRegistry.setRegistries([processMetrics().registry]);
  new AggregatorRegistry();
  process.on("message", (message: unknown) => {
    const response = message as Partial<MetricsResponse> | null;
    if (response?.type !== METRICS_RESPONSE || typeof response.id !== "string") return;
    pending.get(response.id)?.(response as MetricsResponse);
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
