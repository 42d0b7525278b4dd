import http from "node:http";
import type { AddressInfo } from "node:net";

// An OTLP/HTTP collector stub on loopback for the tracing tests: takes
// POST /v1/traces in the JSON encoding (OTEL_EXPORTER_OTLP_PROTOCOL=http/json)
// and keeps every span, flattened, with its service's name.

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, string | number | boolean>;
  /** OTLP status code: 0 unset, 1 ok, 2 error */
  statusCode: number;
  serviceName: string;
}

export interface OtlpCollector {
  /** the base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it */
  url: string;
  spans: ReceivedSpan[];
  /** every POST, whatever its path or encoding (the "nothing is sent" check counts these) */
  requests: number;
  /** resolves when `predicate` holds (checked every 50 ms), or rejects after `timeoutMs` */
  waitFor(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: OtlpAttribute[];
  status?: { code?: number };
}
interface OtlpTraces {
  resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

const plain = (value: OtlpValue) =>
  value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : undefined) ?? value.boolValue ?? value.doubleValue ?? "";
const attributesOf = (list: OtlpAttribute[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, plain(value)]));

export function flattenSpans(traces: OtlpTraces): ReceivedSpan[] {
  return (traces.resourceSpans ?? []).flatMap((resourceSpans) => {
    const serviceName = String(attributesOf(resourceSpans.resource?.attributes)["service.name"] ?? "");
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? "",
        name: span.name,
        attributes: attributesOf(span.attributes),
        statusCode: span.status?.code ?? 0,
        serviceName,
      })),
    );
  });
}

/** Listens on `port` (a free one when 0) on every interface, so that `localhost` reaches it over IPv4 and IPv6. */
export async function startOtlpCollector(port = 0): Promise<OtlpCollector> {
  const spans: ReceivedSpan[] = [];
  const collector = { spans, requests: 0 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      collector.requests++;
      const json = request.url === "/v1/traces" && String(request.headers["content-type"]).startsWith("application/json");
      if (json) spans.push(...flattenSpans(JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpTraces));
      response.writeHead(json ? 200 : 415, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(collector, {
    url,
    async waitFor(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs = 10_000) {
      for (const deadline = Date.now() + timeoutMs; !predicate(spans);) {
        if (Date.now() > deadline)
          throw new Error(`the collector did not get the spans awaited within ${timeoutMs} ms (${spans.length} received)`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // the exporter keeps its connection alive
      }),
  });
}
