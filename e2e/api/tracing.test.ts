import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "@/test/harness/start-app-server";
import { callMethod } from "@/test/api/api-client";
import { createJoinWorld, join, makeMachine, type JoinWorld } from "@/test/api/machine";
import { startOtlpCollector, type OtlpCollector, type ReceivedSpan } from "@/test/api/otlp-collector";

// Issue 19 item 2: a span per published method call, exported by OTLP when
// OTEL_EXPORTER_OTLP_ENDPOINT is set, with the database's spans under it;
// nothing at all without it. Each case starts a server of its own, so that
// every span its collector gets comes from this file's calls.

const serverEnv = (extra: Record<string, string>) => ({
  BC_WORKERS: "off",
  BC_CA_KEY_ENCRYPTION_KEY: process.env.BC_CA_KEY_ENCRYPTION_KEY ?? randomBytes(32).toString("base64"),
  NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? randomBytes(32).toString("base64"),
  // a queued span leaves within 200 ms (the default is 5 s)
  OTEL_BSP_SCHEDULE_DELAY: "200",
  ...extra,
});
const noOtlpEnv = { OTEL_EXPORTER_OTLP_ENDPOINT: "", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "", OTEL_SERVICE_NAME: "" };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const methodSpans = (spans: ReceivedSpan[], method: string) => spans.filter((span) => span.attributes["bc.method"] === method);
const isDatabaseSpan = (span: ReceivedSpan) =>
  span.attributes["db.system"] === "postgresql" || span.attributes["db.system.name"] === "postgresql";

/** The spans whose parent chain leads up to `ancestor`. */
function descendantsOf(spans: ReceivedSpan[], ancestor: ReceivedSpan): ReceivedSpan[] {
  const byId = new Map(spans.filter((span) => span.traceId === ancestor.traceId).map((span) => [span.spanId, span]));
  const leadsTo = (span: ReceivedSpan): boolean => {
    for (let parent = byId.get(span.parentSpanId); parent; parent = byId.get(parent.parentSpanId)) if (parent === ancestor) return true;
    return false;
  };
  return [...byId.values()].filter(leadsTo);
}

describe("with OTEL_EXPORTER_OTLP_ENDPOINT: one span per method call, database spans under it", () => {
  let collector: OtlpCollector;
  let server: AppServer;
  let world: JoinWorld;
  beforeAll(async () => {
    world = await createJoinWorld();
    collector = await startOtlpCollector();
    server = await startAppServer({
      databaseUrl: process.env.DATABASE_URL!,
      logFile: `test-results/tracing-on-${process.pid}.log`,
      env: serverEnv({ ...noOtlpEnv, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }),
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await collector?.close();
  });

  it("a join, two lists, an approval, an approval of an unknown request (404) and a stray name: a span each, with its name, ids and status", async () => {
    const at = { baseUrl: server.baseUrl };
    const pool = { tenantId: world.tenantId, poolId: world.pools.a };
    const deferred = await join(await makeMachine(), world.tokens.a, at);
    expect(deferred.status, deferred.text).toBe(202);
    for (let i = 0; i < 2; i++) expect((await callMethod("joinRequests/list", pool, { bearer: world.keys.admin, ...at })).status).toBe(200);
    const approve = (requestId: string) => callMethod("joinRequests/approve", { ...pool, requestId }, { bearer: world.keys.admin, ...at });
    expect((await approve(deferred.body.requestId)).status).toBe(200);
    expect((await approve(`jreq_${"0".repeat(26)}`)).status).toBe(404);
    expect((await callMethod(`joinRequests/nope-${randomBytes(3).toString("hex")}`, {}, { bearer: world.keys.admin, ...at })).status).toBe(
      404,
    );

    const expected = { "nodes/join": 1, "joinRequests/list": 2, "joinRequests/approve": 2, unknown: 1 };
    const arrived = () => Object.entries(expected).every(([method, count]) => methodSpans(collector.spans, method).length >= count);
    await collector.waitFor(arrived);
    await pause(1_000); // a few more batches: a duplicate would show up by now
    for (const [method, count] of Object.entries(expected)) expect(methodSpans(collector.spans, method), method).toHaveLength(count);

    const [joinSpan] = methodSpans(collector.spans, "nodes/join");
    expect(joinSpan).toMatchObject({
      name: "POST /api/compute/nodes/join",
      serviceName: "better-compute",
      attributes: { "bc.tenant_id": world.tenantId, "bc.pool_id": world.pools.a, "http.response.status_code": 202 },
    });
    for (const span of methodSpans(collector.spans, "joinRequests/list")) {
      expect(span).toMatchObject({
        name: "POST /api/compute/joinRequests/list",
        attributes: { "bc.tenant_id": world.tenantId, "bc.pool_id": world.pools.a, "http.response.status_code": 200 },
      });
    }
    const approvals = methodSpans(collector.spans, "joinRequests/approve");
    expect(approvals.map((span) => span.attributes["http.response.status_code"]).sort()).toEqual([200, 404]);
    expect(approvals.every((span) => span.attributes["bc.pool_id"] === world.pools.a && span.statusCode !== 2)).toBe(true);
    expect(methodSpans(collector.spans, "unknown")[0]).toMatchObject({
      name: "POST /api/compute/unknown",
      attributes: { "http.response.status_code": 404 },
    });

    // Secrets stay out: no span carries the join token or the service key.
    const sent = JSON.stringify(collector.spans);
    for (const secret of [world.tokens.a, world.keys.admin]) expect(sent).not.toContain(secret.split(".")[1]);
  });

  it("the database's spans hang under the method span that ran them (same trace, parent chain)", () => {
    for (const method of ["nodes/join", "joinRequests/list", "joinRequests/approve"]) {
      for (const span of methodSpans(collector.spans, method)) {
        const queries = descendantsOf(collector.spans, span).filter(isDatabaseSpan);
        expect(queries.length, `${method}: database spans under it`).toBeGreaterThan(0);
      }
    }
    // In a method call's trace every query hangs under the method span (the
    // server's own readiness probes, GET /api/health, query outside any).
    const methods = collector.spans.filter((span) => span.attributes["bc.method"]);
    const methodTraces = new Set(methods.map((span) => span.traceId));
    const underSomeMethod = new Set(methods.flatMap((span) => descendantsOf(collector.spans, span)));
    const strays = collector.spans.filter((span) => isDatabaseSpan(span) && methodTraces.has(span.traceId) && !underSomeMethod.has(span));
    expect(strays).toEqual([]);
  });
});

describe("without an OTLP endpoint nothing is sent", () => {
  // The exporter's default endpoint is http://localhost:4318: a collector
  // there would get the spans of a server that traced without being asked to.
  it("calls to a server without OTEL_EXPORTER_OTLP_ENDPOINT reach no collector on the default port", async (context) => {
    const collector = await startOtlpCollector(4318).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") return null;
      throw error;
    });
    if (!collector) return context.skip("port 4318 (OTLP's default) is taken on this machine: nothing to listen with");
    const world = await createJoinWorld();
    const server = await startAppServer({
      databaseUrl: process.env.DATABASE_URL!,
      logFile: `test-results/tracing-off-${process.pid}.log`,
      env: serverEnv(noOtlpEnv),
    });
    try {
      const pool = { tenantId: world.tenantId, poolId: world.pools.a };
      for (let i = 0; i < 2; i++)
        expect((await callMethod("joinRequests/list", pool, { bearer: world.keys.admin, baseUrl: server.baseUrl })).status).toBe(200);
      expect((await join(await makeMachine(), world.tokens.a, { baseUrl: server.baseUrl })).status).toBe(202);
      await pause(1_000);
    } finally {
      await server.stop(); // a flush at exit would also arrive now
      await collector.close();
    }
    expect(collector.requests).toBe(0);
    expect(readFileSync(server.logFile, "utf8")).not.toContain("tracing: exporting spans");
  }, 120_000);
});
