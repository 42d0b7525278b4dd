// npm start — `next start` in one process per core, sharing one port.
//
// One Node process runs JavaScript on one core; the app holds no state of its
// own (every decision is a conditional update in PostgreSQL), so the way to
// use a machine's cores is more processes. node:cluster lets them share the
// listening socket. The embedded PGlite database lives inside one process, so
// without DATABASE_URL there is exactly one.
//
// BC_WEB_CONCURRENCY: how many processes (default: the number of cores with
// DATABASE_URL, 1 without). Arguments are passed to `next start` (-p, -H).
// Plain JavaScript: production runs it without the TypeScript toolchain.
import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import { createRequire } from "node:module";

const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

function processCount() {
  const configured = process.env.BC_WEB_CONCURRENCY;
  if (configured === undefined || configured === "") return process.env.DATABASE_URL ? availableParallelism() : 1;
  const count = Number(configured);
  if (!Number.isInteger(count) || count < 1) {
    console.error(`BC_WEB_CONCURRENCY must be a whole number ≥ 1, not "${configured}"`);
    process.exit(2);
  }
  if (count > 1 && !process.env.DATABASE_URL) {
    console.error("BC_WEB_CONCURRENCY > 1 needs DATABASE_URL: the embedded database lives inside one process");
    process.exit(2);
  }
  return count;
}

if (cluster.isPrimary) {
  const count = processCount();
  cluster.setupPrimary({ exec: nextBin, args: ["start", ...process.argv.slice(2)] });
  let stopping = false;
  let exitCode = 0;
  const startedAt = new Map(); // the live processes: worker id → start time
  const fork = () => startedAt.set(cluster.fork().id, Date.now());
  for (let i = 0; i < count; i++) fork();
  cluster.on("exit", (worker, code, signal) => {
    const ranFor = Date.now() - startedAt.get(worker.id);
    startedAt.delete(worker.id);
    if (stopping) {
      if (startedAt.size === 0) process.exit(exitCode);
      return;
    }
    if (ranFor < 10_000) {
      // dying at start (bad config, port taken) would only die again: stop, loudly
      console.error(`app process ${worker.process.pid} exited (${signal ?? code}) ${ranFor} ms after start; stopping`);
      stop("SIGTERM", code || 1);
      return;
    }
    // A process that dies later is replaced; the others keep serving.
    console.error(`app process ${worker.process.pid} exited (${signal ?? code}); starting another`);
    fork();
  });
  function stop(signal, code = 0) {
    stopping = true;
    exitCode = code;
    if (startedAt.size === 0) process.exit(exitCode);
    for (const id of startedAt.keys()) cluster.workers?.[id]?.process.kill(signal);
    // next start finishes in-flight requests on SIGTERM; do not wait forever
    setTimeout(() => process.exit(exitCode || 1), 10_000).unref();
  }
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}
