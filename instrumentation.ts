// Next.js calls register() once when a server starts. The background workers
// (webhook delivery, retention) run inside the app process by default:
// Node.js runtime only, never during `next build`, and at most once per
// process (startWorkersOnce guards against dev hot reloads). BC_WORKERS=off
// leaves them to `npm run worker`.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // A new embedded database is the demo: seeded before the first request.
  const { seedEmbeddedDemoIfEmpty } = await import("./server/seed/seed-embedded-demo");
  await seedEmbeddedDemoIfEmpty();
  const { startWorkersOnce } = await import("./server/workers/start-workers");
  // Not awaited: register() must return before the server takes requests.
  void startWorkersOnce();
}
