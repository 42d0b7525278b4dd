// The JSON reports `npm test` writes (test-results/vitest-<project>.json,
// playwright.json), read once after the runs for the slowest files and the
// failed tests printed under them.
import { readFile } from "node:fs/promises";
import path from "node:path";

/** What the lists read of vitest's JSON report. */
export interface VitestReport {
  testResults: {
    name: string;
    startTime: number;
    endTime: number;
    status?: string;
    /** a file that failed outside its tests: an import, a beforeAll */
    message?: string;
    assertionResults?: { fullName: string; status: string; failureMessages?: string[]; location?: { line: number } | null }[];
  }[];
}

export interface PlaywrightSpec {
  title: string;
  line?: number;
  tests: { projectName?: string; status: string; results: { duration: number; status: string; error?: { message?: string } }[] }[];
}

interface PlaywrightSuite {
  title: string;
  file: string;
  specs?: PlaywrightSpec[];
  suites?: PlaywrightSuite[];
}

/** What the lists read of Playwright's JSON report. */
export interface PlaywrightReport {
  config?: { rootDir?: string };
  suites: PlaywrightSuite[];
  /** errors outside any test: the global setup, a spec that does not load */
  errors?: { message?: string }[];
}

/** Every spec of the report, with its file (relative to `root`) and the titles of the describe blocks around it. */
export function playwrightSpecs(report: PlaywrightReport, root: string): { file: string; titles: string[]; spec: PlaywrightSpec }[] {
  // spec files are named relative to Playwright's testDir
  const testDir = report.config?.rootDir ?? root;
  const specs: { file: string; titles: string[]; spec: PlaywrightSpec }[] = [];
  const walk = (suite: PlaywrightSuite, titles: string[]) => {
    const file = path.relative(root, path.resolve(testDir, suite.file));
    for (const spec of suite.specs ?? []) specs.push({ file, titles, spec });
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of report.suites) walk(suite, []);
  return specs;
}

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
