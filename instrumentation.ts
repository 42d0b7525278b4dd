// Next.js calls register() once when a server starts, before it serves.
// First the configuration: a deployment missing a secret stops here (exit 2,
// one line), not at its first sign-in or admission. Then the background
// workers (webhook delivery, mail notifications, retention), which run inside the app process by
// default: Node.js runtime only, never during `next build`, and at most once
// per process (startWorkersOnce guards against dev hot reloads). BC_WORKERS=off
// leaves them to `npm run worker`. With OTEL_EXPORTER_OTLP_ENDPOINT set,
// tracing starts before all of it (server/tracing).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // First of all: from here on every request carries its socket's address,
  // which sign-in throttling counts (SPEC G9; server/auth/peer-address.ts).
  (await import("./server/auth/peer-address")).stampPeerAddresses();
  // Tracing first, before anything loads `pg` (its instrumentation wraps the
  // module as it loads), and only with an OTLP endpoint: without one the SDK
  // is never imported.
  const { tracingEnabled } = await import("./server/tracing/tracing-enabled");
  const tracing = tracingEnabled() ? await (await import("./server/tracing/start-tracing")).startTracing() : null;
  const { refuseMisconfiguredStart } = await import("./server/lifecycle/refuse-misconfigured-start");
  refuseMisconfiguredStart();
  // A new embedded database is the demo: seeded before the first request.
  const { seedEmbeddedDemoIfEmpty } = await import("./server/seed/seed-embedded-demo");
  await seedEmbeddedDemoIfEmpty();
  const { startWorkersOnce } = await import("./server/lifecycle/start-workers");
  const { stopOnSignal } = await import("./server/lifecycle/stop-on-signal");
  // Not awaited: register() must return before the server takes requests.
  stopOnSignal(startWorkersOnce(), tracing);
  // Under `npm start` the primary asks every app process for its metrics at each scrape.
  const { startProcessMetrics } = await import("./server/metrics/process-metrics-text");
  startProcessMetrics();
  // …and, with BC_METRICS_PORT, the primary serves scrapes there and asks the app processes for the gauges.
  (await import("./server/metrics/primary-scrape")).answerPrimaryScrapes();
  const { announceReady } = await import("./server/lifecycle/announce-ready");
  announceReady();
  if (process.env.NODE_ENV === "development") console.log((await import("./server/lifecycle/dev-hint")).devHint());
}
