// One measured run, whichever way it was driven.
export interface Figures {
  requests: number;
  errors: number;
  throughput: number; // requests per second
  p50Ms: number;
  p99Ms: number;
}

export function percentile(sortedMs: number[], p: number): number {
  if (sortedMs.length === 0) return Number.NaN;
  const index = Math.min(sortedMs.length - 1, Math.ceil((p / 100) * sortedMs.length) - 1);
  return sortedMs[Math.max(0, index)]!;
}

export function figuresFrom(latenciesMs: number[], errors: number, seconds: number): Figures {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return {
    requests: latenciesMs.length,
    errors,
    throughput: latenciesMs.length / seconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
  };
}
