import "server-only";
import { getDb } from "../db/client";
import { log } from "../log";
import { databaseGaugesText, readDatabaseGauges } from "./database-gauges";
import { processMetricsText } from "./process-metrics-text";

/** A scrape's whole answer: the processes' own metrics, then the gauges read from the database. */
export async function scrapeMetrics(): Promise<string> {
  const [processText, databaseText] = await Promise.all([processMetricsText(), scrapedDatabaseGauges()]);
  return `${processText}\n${databaseText}`;
}

/**
 * The gauges read from the database, as Prometheus text. With the database
 * away the scrape still answers (its process metrics are what one wants to
 * see then), saying so in bc_database_up.
 */
export async function scrapedDatabaseGauges(): Promise<string> {
  const up = (value: 0 | 1) =>
    `# HELP bc_database_up Whether this scrape could read the database gauges.\n# TYPE bc_database_up gauge\nbc_database_up ${value}\n`;
  try {
    const values = await readDatabaseGauges(await getDb());
    return `${await databaseGaugesText(values)}\n${up(1)}`;
  } catch (error) {
    log.warn("metrics: the database gauges could not be read", { error: String(error) });
    return up(0);
  }
}
