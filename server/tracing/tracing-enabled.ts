// Decides, from the environment alone, whether this process exports traces.
// Kept apart from start-tracing.ts so that instrumentation.ts can ask without
// loading the OpenTelemetry SDK: with no endpoint the SDK is never imported.

/** True when an OTLP endpoint for traces is set and OTEL_SDK_DISABLED does not say otherwise. */
export function tracingEnabled(env: Record<string, string | undefined> = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
}

/** The OTLP protocol asked for traces, as written ("" when none). */
export function requestedTracesProtocol(env: Record<string, string | undefined> = process.env): string {
  return (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || "").trim();
}

/** The OTLP protocol used for traces: http/json on request, else http/protobuf (the OTLP spec's default; grpc is not shipped). */
export function tracesProtocol(env: Record<string, string | undefined> = process.env): "http/protobuf" | "http/json" {
  return requestedTracesProtocol(env) === "http/json" ? "http/json" : "http/protobuf";
}
