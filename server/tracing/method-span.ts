import "server-only";
import { SpanStatusCode, trace, type Span } from "@opentelemetry/api";

// One span per published method call (issue 19): the method's name, and its
// tenant, pool, site or node once the input or the machine's credential says
// which. Without a registered tracer provider (no OTLP endpoint) the API hands
// out non-recording spans: the calls below cost next to nothing.

const tracer = trace.getTracer("better-compute");

/** Runs a method call inside its span; the answer's status ends it, a 5xx as an error. */
export function traceMethodCall(method: string, call: () => Promise<Response>): Promise<Response> {
  return tracer.startActiveSpan(`POST /api/compute/${method}`, { attributes: { "bc.method": method } }, async (span) => {
    try {
      const response = await call();
      endWithStatus(span, response.status);
      return response;
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      throw error;
    }
  });
}

function endWithStatus(span: Span, status: number): void {
  span.setAttribute("http.response.status_code", status);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

const resourceAttributes = { tenantId: "bc.tenant_id", poolId: "bc.pool_id", siteId: "bc.site_id", nodeId: "bc.node_id" } as const;

/** Puts the ids a parsed input or a machine credential names on the current method span (ids only: never a secret). */
export function tagMethodResource(subject: unknown): void {
  const span = trace.getActiveSpan();
  if (!span?.isRecording() || typeof subject !== "object" || subject === null) return;
  for (const [field, attribute] of Object.entries(resourceAttributes)) {
    const value = (subject as Record<string, unknown>)[field];
    if (typeof value === "string") span.setAttribute(attribute, value);
  }
}
