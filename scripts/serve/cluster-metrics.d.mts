// Types of cluster-metrics.mjs (plain JavaScript, run without the TypeScript toolchain) for its test.

export const COLLECT: "bc:metrics-collect";
export const SNAPSHOT: "bc:metrics-snapshot";

export interface MetricsWorker {
  id: number;
  isConnected(): boolean;
  send(message: unknown): unknown;
}

export function clusterMetrics(options: { workers: () => MetricsWorker[]; waitMs?: number }): {
  onMessage(worker: MetricsWorker, message: unknown): void;
  onExit(worker: MetricsWorker): Promise<void>;
  text(): Promise<string>;
};
