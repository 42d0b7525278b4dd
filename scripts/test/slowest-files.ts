// The slowest test files of a run, read from the JSON reports `npm test`
// writes (test-results/vitest-<project>.json, playwright.json) and printed
// under the phase table: a phase says which runner to look at, this says
// which files in it (issue 33). Files of one runner may run side by side, so
// their times add up to more than the phase's.
import path from "node:path";
import { formatDuration } from "./phase-times";
import { playwrightSpecs, type PlaywrightReport, type ReadReport, type VitestReport } from "./read-reports";

export interface FileTime {
  /** vitest's project or "Playwright" */
  runner: string;
  /** relative to the repository */
  file: string;
  durationMs: number;
}

/** One row per file: from its start to its end, setup and teardown included. */
export function vitestFileTimes(runner: string, report: VitestReport, root: string): FileTime[] {
  return report.testResults.map((result) => ({
    runner,
    file: path.relative(root, result.name),
    durationMs: result.endTime - result.startTime,
  }));
}

/** One row per spec file: the sum of its tests' attempts (a file's tests may be spread over workers). */
export function playwrightFileTimes(report: PlaywrightReport, root: string): FileTime[] {
  const totals = new Map<string, number>();
  for (const { file, spec } of playwrightSpecs(report, root))
    for (const test of spec.tests) for (const result of test.results) totals.set(file, (totals.get(file) ?? 0) + result.duration);
  return [...totals].map(([file, durationMs]) => ({ runner: "Playwright", file, durationMs }));
}

export function formatSlowestFiles(times: FileTime[], count: number): string {
  const slowest = [...times].sort((a, b) => b.durationMs - a.durationMs).slice(0, count);
  const width = Math.max(0, ...slowest.map((time) => time.runner.length));
  return [
    `Slowest ${slowest.length} test files (from the JSON reports; a runner's files may overlap):`,
    ...slowest.map((time) => `  ${formatDuration(time.durationMs).padStart(7)}  ${time.runner.padEnd(width)}  ${time.file}`),
  ].join("\n");
}

/** The files of every report read. */
export function fileTimes(root: string, reports: ReadReport[]): FileTime[] {
  return reports.flatMap(({ runner, kind, json }) =>
    kind === "vitest" ? vitestFileTimes(runner, json as VitestReport, root) : playwrightFileTimes(json as PlaywrightReport, root),
  );
}
