import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { expect, inject } from "vitest";

// Reads GET /metrics as Prometheus would: through a real text-format parser
// (prom2json's output shape), never with a regex. parse-prometheus-text-format
// 1.1.1 folds a histogram's label sets into one entry, so per-label histogram
// counts are checked on the registry instead (server/metrics/observe.test.ts).

export type MetricFamilies = ReturnType<typeof parsePrometheusTextFormat>;

/** The token the shared API test server was started with (test/api/start-server.ts). */
export const metricsToken = () => inject("metricsToken");

export async function scrape(options: { baseUrl?: string; token?: string } = {}): Promise<MetricFamilies> {
  const response = await fetch(`${options.baseUrl ?? inject("baseUrl")}/metrics`, {
    headers: { authorization: `Bearer ${options.token ?? metricsToken()}` },
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusTextFormat(text);
}

const matches = (labels: Record<string, string> | undefined, wanted: Record<string, string>) =>
  Object.entries(wanted).every(([name, value]) => (labels?.[name] ?? "") === value);

/** A counter's or gauge's value for exactly these labels (0 when the series is absent: never counted). */
export function sample(families: MetricFamilies, name: string, labels: Record<string, string> = {}): number {
  const family = families.find((candidate) => candidate.name === name);
  const series = family?.metrics.filter((metric) => matches(metric.labels, labels)) ?? [];
  expect(series.length, `${name} ${JSON.stringify(labels)} matches one series at most`).toBeLessThanOrEqual(1);
  const [one] = series;
  return one && "value" in one ? Number(one.value) : 0;
}
