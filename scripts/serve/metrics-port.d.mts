// Types of metrics-port.mjs (plain JavaScript, run without the TypeScript toolchain) for its test.
import type { Server } from "node:http";
import type { MetricsWorker } from "./cluster-metrics.mjs";

export const SCRAPE: "bc:metrics-scrape";
export const SCRAPE_ANSWER: "bc:metrics-scrape-answer";

export interface ScrapeResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function metricsPort(options: {
  metrics: { text(): Promise<string> };
  readyWorkers: () => MetricsWorker[];
  timeoutMs?: number;
  gaugeDeadlineMs?: number;
}): {
  onMessage(worker: MetricsWorker, message: unknown): void;
  answer(authorization: string | null): Promise<ScrapeResponse>;
  listen(port: number, host?: string): Promise<Server>;
};
