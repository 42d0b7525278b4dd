import "server-only";
import { envDetector, detectResources, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { log } from "../log";
import { requestedTracesProtocol, tracesProtocol } from "./tracing-enabled";

// Loaded by instrumentation.ts only when an OTLP endpoint is set (see
// tracing-enabled.ts), before anything opens the database: the pg
// instrumentation wraps the `pg` module when it is first required, so every
// query Prisma's pg adapter sends (its own and $queryRaw) becomes a span under
// the method span that is active at the time. The exporter reads the standard
// OTEL_EXPORTER_OTLP_* variables (endpoint, headers, timeout) and the batch
// processor OTEL_BSP_*.

export interface Tracing {
  /** Ends the export: the spans still queued are sent first. */
  shutdown(): Promise<void>;
}

export async function startTracing(): Promise<Tracing> {
  const protocol = tracesProtocol();
  const { OTLPTraceExporter } =
    protocol === "http/json"
      ? await import("@opentelemetry/exporter-trace-otlp-http")
      : await import("@opentelemetry/exporter-trace-otlp-proto");
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the env detector) win over our default name.
  const resource = resourceFromAttributes({ "service.name": "better-compute" }).merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  provider.register();
  // Query text only (with its $n placeholders): enhancedDatabaseReporting, which adds the values, stays off.
  registerInstrumentations({ tracerProvider: provider, instrumentations: [new PgInstrumentation({ requireParentSpan: true })] });
  const requested = requestedTracesProtocol();
  if (requested && requested !== protocol) log.warn("tracing: unsupported OTLP protocol, using http/protobuf", { requested });
  log.info("tracing: exporting spans by OTLP", { protocol, pid: process.pid });
  return { shutdown: () => provider.shutdown() };
}
