// npm start — `next start` in one process per core, sharing one port.
//
// One Node process runs JavaScript on one core; the app holds no state of its
// own (every decision is a conditional update in PostgreSQL), so the way to
// use a machine's cores is more processes. node:cluster lets them share the
// listening socket. The embedded PGlite database lives inside one process, so
// without DATABASE_URL there is exactly one.
//
// Start-up: one process first; it checks the configuration before it serves
// (instrumentation.ts) and exits 2 naming what is wrong, which stops
// everything with exit 2. The others start once it says it is ready. Until one has
// been ready, any death stops the server (a port taken, a build missing: a
// restart would only die again). After that a process that dies is replaced,
// after a back-off that doubles while replacements keep dying young, so a
// crash loop neither takes the service down nor spins a core.
//
// SIGTERM/SIGINT: each process stops taking connections, finishes the
// requests and webhook attempts in flight, and exits (NEXT_MANUAL_SIG_HANDLE:
// the app's own handler does it, see server/lifecycle/stop-on-signal.ts).
// Whatever is still running after BC_STOP_TIMEOUT_SECONDS (default 30) is killed.
//
// GET /metrics reaches whichever app process the kernel hands the connection
// to; that process asks this primary, which sums every app process's metrics
// and sends the text back, so one scrape of the port sees the whole machine
// (scripts/serve/cluster-metrics.mjs: at once, and never going backwards).
// With BC_METRICS_PORT this primary also serves GET /metrics on that port
// itself, where a scrape does not queue behind the calls (serve/metrics-port.mjs).
//
// BC_WEB_CONCURRENCY: how many processes (default: the number of cores with
// DATABASE_URL, 1 without). Arguments are passed to `next start` (-p, -H).
// Plain JavaScript: production runs it without the TypeScript toolchain.
import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import { createRequire } from "node:module";
import { clusterMetrics } from "./serve/cluster-metrics.mjs";
import { metricsPort } from "./serve/metrics-port.mjs";

const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
const CONFIGURATION_ERROR = 2; // what the app process exits with (server/lifecycle/refuse-misconfigured-start.ts)
const YOUNG_MS = 60_000; // a process that dies younger than this counts towards the back-off
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;

function wholeNumber(name, fallback, { min = 1, max = Number.MAX_SAFE_INTEGER } = {}) {
  const configured = process.env[name];
  if (configured === undefined || configured === "") return fallback;
  const value = Number(configured);
  if (!Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
    console.error(`${name} must be a whole number ${range}, not "${configured}"`);
    process.exit(2);
  }
  return value;
}

function processCount() {
  const count = wholeNumber("BC_WEB_CONCURRENCY", process.env.DATABASE_URL ? availableParallelism() : 1);
  if (count > 1 && !process.env.DATABASE_URL) {
    console.error("BC_WEB_CONCURRENCY > 1 needs DATABASE_URL: the embedded database lives inside one process");
    process.exit(2);
  }
  return count;
}

if (cluster.isPrimary) {
  const count = processCount();
  // checked before any process is forked, like the count
  const metricsPortNumber = wholeNumber("BC_METRICS_PORT", undefined, { max: 65_535 });
  const stopTimeoutMs = wholeNumber("BC_STOP_TIMEOUT_SECONDS", 30) * 1000;
  cluster.setupPrimary({ exec: nextBin, args: ["start", ...process.argv.slice(2)] });
  let stopping = false;
  let served = false; // some process has been ready: deaths from now on are crashes, not a failed start
  let exitCode = 0;
  let youngDeaths = 0; // replacements in a row that died young
  const startedAt = new Map(); // the live processes: worker id → start time
  const ready = new Set(); // the ids of the processes that said they serve
  const fork = () => startedAt.set(cluster.fork({ NEXT_MANUAL_SIG_HANDLE: "true" }).id, Date.now());

  fork();
  // "ready": the process checked its configuration and is serving
  // (server/lifecycle/announce-ready.ts); Next listens before that check runs
  cluster.on("message", (worker, message) => {
    if (message?.type !== "bc:ready") return;
    ready.add(worker.id);
    console.error(`app process ${worker.process.pid} serving`);
    if (served) return;
    served = true;
    for (let i = 1; i < count; i++) fork();
  });
  // Only processes that serve are asked: one still starting has counted
  // nothing yet, and waiting for it held the first scrape after a start.
  const readyWorkers = () => Object.values(cluster.workers ?? {}).filter((worker) => ready.has(worker.id));
  const metrics = clusterMetrics({ workers: readyWorkers });
  const port = metricsPort({ metrics, readyWorkers });
  if (metricsPortNumber !== undefined) {
    const host = process.env.BC_METRICS_HOST || undefined;
    port.listen(metricsPortNumber, host).then(
      () => console.error(`metrics on ${host ?? "every address"}, port ${metricsPortNumber} (GET /metrics)`),
      (error) => {
        console.error(`BC_METRICS_PORT ${metricsPortNumber}: cannot listen (${error.code ?? error.message}); stopping`);
        stop("SIGTERM", CONFIGURATION_ERROR);
      },
    );
  }
  cluster.on("message", (worker, message) => {
    metrics.onMessage(worker, message);
    port.onMessage(worker, message);
    if (message?.type !== "bc:metrics-request") return;
    const answer = (fields) => worker.isConnected() && worker.send({ type: "bc:metrics-response", id: message.id, ...fields });
    metrics.text().then(
      (text) => answer({ text }),
      (error) => answer({ error: String(error?.message ?? error) }),
    );
  });
  cluster.on("exit", (worker, code, signal) => {
    ready.delete(worker.id);
    void metrics.onExit(worker);
    const ranFor = Date.now() - startedAt.get(worker.id);
    startedAt.delete(worker.id);
    if (stopping) {
      if (startedAt.size === 0) process.exit(exitCode);
      return;
    }
    if (code === CONFIGURATION_ERROR) {
      // the process said what is wrong (one line); every other would say it again
      stop("SIGTERM", CONFIGURATION_ERROR);
      return;
    }
    if (!served) {
      console.error(`app process ${worker.process.pid} exited (${signal ?? code}) ${ranFor} ms after start, before serving; stopping`);
      stop("SIGTERM", code || 1);
      return;
    }
    youngDeaths = ranFor < YOUNG_MS ? youngDeaths + 1 : 0;
    const delay = youngDeaths === 0 ? 0 : Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (youngDeaths - 1));
    console.error(`app process ${worker.process.pid} exited (${signal ?? code}) after ${ranFor} ms; starting another in ${delay} ms`);
    setTimeout(() => stopping || fork(), delay);
  });
  function stop(signal, code = 0) {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    if (startedAt.size === 0) process.exit(exitCode);
    for (const id of startedAt.keys()) cluster.workers?.[id]?.process.kill(signal);
    setTimeout(() => {
      console.error(`app processes still running ${stopTimeoutMs} ms after ${signal}: killing them`);
      for (const id of startedAt.keys()) cluster.workers?.[id]?.process.kill("SIGKILL");
      process.exit(exitCode || 1);
    }, stopTimeoutMs).unref();
  }
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}
