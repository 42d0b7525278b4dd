// The package ships no types; this is its documented output (prom2json's shape).
declare module "parse-prometheus-text-format" {
  type Labels = Record<string, string>;
  type Sample = { value: string; labels?: Labels };
  type HistogramSample = { buckets: Record<string, string>; count: string; sum: string; labels?: Labels };
  type SummarySample = { quantiles: Record<string, string>; count: string; sum: string; labels?: Labels };
  interface MetricFamily {
    name: string;
    help: string;
    type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED";
    metrics: Array<Sample | HistogramSample | SummarySample>;
  }
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
