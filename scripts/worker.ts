// npm run worker — the background workers (webhook delivery, mail notifications, retention, the approval rules sweep) as a
// process of their own, e.g. with BC_WORKERS=off on the app instances. Any
// number may run against one database. SIGTERM/SIGINT: stop claiming, finish
// the attempts in flight, exit 0. (The npm script `exec`s node with tsx as a
// loader: npm's SIGTERM then reaches this process itself, not a shell that
// dies without passing it on, nor tsx's CLI, which SIGKILLs a child that does
// not acknowledge a signal within 30 ms.)
import { getDb } from "@/server/db/client";
import { refuseMisconfiguredStart } from "@/server/lifecycle/refuse-misconfigured-start";
import { log } from "@/server/log";
import { startWorkers } from "@/server/lifecycle/start-workers";

async function main(): Promise<number> {
  refuseMisconfiguredStart(); // exit 2 with one line, like the app processes
  const db = await getDb();
  const workers = startWorkers(db);
  log.info("worker started: webhook delivery, mail notifications, retention, approval rules sweep", { pid: process.pid });
  const signal = await firstSignal();
  log.info("worker stopping: finishing attempts in flight", { signal });
  await workers.stop();
  await db.$disconnect();
  log.info("worker stopped", { signal });
  return 0;
}

/**
 * Resolves at the first SIGTERM/SIGINT. Ctrl-C can arrive twice at once (from
 * the terminal and relayed by npm), so a repeat within a second is ignored; a
 * later one forces the exit without waiting for the attempts in flight.
 */
function firstSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let first: number | undefined;
    const onSignal = (signal: NodeJS.Signals) => {
      if (first === undefined) {
        first = Date.now();
        return resolve(signal);
      }
      if (Date.now() - first < 1_000) return;
      log.warn("worker forced to exit: attempts in flight are retried after their lease", { signal });
      process.exit(1);
    };
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
  });
}

// Exits explicitly: an open embedded (PGlite) database can keep the event loop alive.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log.error("worker failed", { error: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  },
);
