import { register } from "prom-client";
import { env } from "@/server/env";
import { log } from "@/server/log";
import { scrapeAccess } from "@/server/metrics/scrape-access";
import { scrapeMetrics } from "@/server/metrics/scrape-metrics";

// GET /metrics: Prometheus text, for a scraper holding BC_METRICS_TOKEN (docs/operations.md "Metrics and health").
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const headers = { "cache-control": "no-store" };
  switch (scrapeAccess(request.headers.get("authorization"), env().BC_METRICS_TOKEN)) {
    case "not-served":
      return new Response("not found\n", { status: 404, headers });
    case "unauthorized":
      return new Response("a bearer token is required\n", { status: 401, headers: { ...headers, "www-authenticate": "Bearer" } });
    case "allowed":
      try {
        return new Response(await scrapeMetrics(), { headers: { ...headers, "content-type": register.contentType } });
      } catch (error) {
        // e.g. an app process that did not answer the primary in time (one starting or dying)
        log.warn("metrics: the scrape could not be answered", { error: String(error) });
        return new Response("metrics are unavailable; try again shortly\n", { status: 503, headers: { ...headers, "retry-after": "5" } });
      }
  }
}
