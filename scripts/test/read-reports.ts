// The JSON reports `npm test` writes (test-results/vitest-<project>.json,
// playwright.json), read once after the runs for the slowest files and the
// failed tests printed under them.
import { readFile } from "node:fs/promises";
import path from "node:path";

/** A report this run wrote: vitest's (named by its project) or Playwright's. */
export interface Report {
  runner: string;
  kind: "vitest" | "playwright";
  file: string;
}

export interface ReadReport extends Report {
  json: unknown;
}

/** Every report given that could be read; a missing or unreadable one is left out (its phase already says it failed). */
export async function readReports(root: string, reports: Report[]): Promise<ReadReport[]> {
  const read: ReadReport[] = [];
  for (const report of reports) {
    try {
      read.push({ ...report, json: JSON.parse(await readFile(path.resolve(root, report.file), "utf8")) as unknown });
    } catch {
      // no report: nothing to list for it
    }
  }
  return read;
}
