import "server-only";
import cluster from "node:cluster";
import { env } from "../env";
import { scrapeAccess } from "./scrape-access";
import { scrapedDatabaseGauges } from "./scrape-metrics";

// The app process's half of the metrics port (scripts/serve/metrics-port.mjs):
// when `npm start`'s primary serves a scrape on BC_METRICS_PORT, it asks every
// ready app process whether the bearer may scrape and, if so, for the gauges
// read from the database — the parts that need this process's TypeScript.
// The primary uses the first answer.

/** The message types of scripts/serve/metrics-port.mjs (plain JS: keep in step). */
export const METRICS_SCRAPE = "bc:metrics-scrape";
export const METRICS_SCRAPE_ANSWER = "bc:metrics-scrape-answer";

const state = globalThis as typeof globalThis & { __betterComputePrimaryScrapes?: true };

/** Answers the primary's scrapes from now on; once per process, and only under `npm start`. */
export function answerPrimaryScrapes(): void {
  if (state.__betterComputePrimaryScrapes || !cluster.isWorker) return;
  state.__betterComputePrimaryScrapes = true;
  process.on("message", (message: unknown) => {
    const received = message as { type?: unknown; id?: unknown; authorization?: unknown } | null;
    if (received?.type !== METRICS_SCRAPE) return;
    const authorization = typeof received.authorization === "string" ? received.authorization : null;
    void primaryScrapeAnswer(authorization).then((answer) => {
      if (process.connected) process.send?.({ type: METRICS_SCRAPE_ANSWER, id: received.id, ...answer });
    });
  });
}

/** Whether this bearer may scrape (the app port's rule) and, if it may, the database gauges as Prometheus text. */
export async function primaryScrapeAnswer(authorization: string | null): Promise<{ access: string; gauges?: string }> {
  const access = scrapeAccess(authorization, env().BC_METRICS_TOKEN);
  if (access !== "allowed") return { access };
  return { access, gauges: await scrapedDatabaseGauges() };
}
