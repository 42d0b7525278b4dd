// The tests that failed, named with the first lines of their errors, printed
// by `npm test` under the slowest files: CI keeps only the end of a run's
// output, and a count of failures with no names cannot be acted on.
import path from "node:path";
import { playwrightSpecs, type PlaywrightReport, type ReadReport, type VitestReport } from "./read-reports";

export interface FailedTest {
  runner: string;
  /** relative to the repository, with the line when the report has it */
  where: string;
  title: string;
  message: string;
}

export function vitestFailures(runner: string, report: VitestReport, root: string): FailedTest[] {
  return report.testResults.flatMap((file) => {
    const name = path.relative(root, file.name);
    const failed = (file.assertionResults ?? []).filter((test) => test.status === "failed");
    if (!failed.length && file.status === "failed")
      return [{ runner, where: name, title: "(the file, outside its tests)", message: file.message ?? "" }];
    return failed.map((test) => ({
      runner,
      where: test.location ? `${name}:${test.location.line}` : name,
      title: test.fullName,
      message: (test.failureMessages ?? []).join("\n"),
    }));
  });
}

/** A test counts as failed when its last attempt did ("unexpected"); one that passed on a retry is not listed. */
export function playwrightFailures(report: PlaywrightReport, root: string): FailedTest[] {
  const failures: FailedTest[] = (report.errors ?? []).map((error) => ({
    runner: "Playwright",
    where: "(outside the tests)",
    title: "",
    message: error.message ?? "",
  }));
  for (const { file, titles, spec } of playwrightSpecs(report, root))
    for (const test of spec.tests.filter((test) => test.status === "unexpected")) {
      const last = test.results.at(-1);
      failures.push({
        runner: "Playwright",
        where: spec.line ? `${file}:${spec.line}` : file,
        title: [test.projectName && `[${test.projectName}]`, ...titles, spec.title].filter(Boolean).join(" › "),
        message: `${last?.status ?? "failed"}: ${last?.error?.message ?? ""}`,
      });
    }
  return failures;
}

export function failedTests(root: string, reports: ReadReport[]): FailedTest[] {
  return reports.flatMap(({ runner, kind, json }) =>
    kind === "vitest" ? vitestFailures(runner, json as VitestReport, root) : playwrightFailures(json as PlaywrightReport, root),
  );
}

// the colour codes runners put in their messages
const ANSI = /\u001b\[[0-9;]*m/g;

/** Each failure on a line of its own, then its error's first lines, indented. */
export function formatFailedTests(failures: FailedTest[], linesPerError = 4): string {
  return [
    `Failed tests (${failures.length}):`,
    ...failures.flatMap((failure) => [
      `  ${failure.runner}  ${failure.where}${failure.title ? `  ${failure.title}` : ""}`,
      ...failure.message
        .replace(ANSI, "")
        .split("\n")
        .map((line) => line.trimEnd())
        .filter(Boolean)
        .slice(0, linesPerError)
        .map((line) => `      ${line.length > 200 ? `${line.slice(0, 199)}…` : line}`),
    ]),
  ].join("\n");
}
