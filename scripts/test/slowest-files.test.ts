import { describe, expect, it } from "vitest";
import { fileTimes, formatSlowestFiles, playwrightFileTimes, vitestFileTimes } from "./slowest-files";

const root = "/repo";

describe("the slowest test files of a run", () => {
  it("a vitest file takes from its start to its end, named from the repository", () => {
    const report = { testResults: [{ name: "/repo/server/a.test.ts", startTime: 1_000, endTime: 4_500 }] };
    expect(vitestFileTimes("unit", report, root)).toEqual([{ runner: "unit", file: "server/a.test.ts", durationMs: 3_500 }]);
  });

  it("a Playwright spec file adds up its tests' attempts across nested suites, named from its testDir", () => {
    const attempt = (duration: number) => ({ title: "t", tests: [{ status: "expected", results: [{ duration, status: "passed" }] }] });
    const report = {
      config: { rootDir: "/repo/e2e/browser" },
      suites: [
        {
          title: "a.admin.spec.ts",
          file: "a.admin.spec.ts",
          specs: [attempt(1_000)],
          suites: [{ title: "a block", file: "a.admin.spec.ts", specs: [attempt(2_000), attempt(500)] }],
        },
        {
          title: "b.viewer.spec.ts",
          file: "b.viewer.spec.ts",
          specs: [
            {
              title: "retried",
              tests: [
                {
                  status: "flaky",
                  results: [
                    { duration: 700, status: "failed" },
                    { duration: 300, status: "passed" },
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    expect(playwrightFileTimes(report, root)).toEqual([
      { runner: "Playwright", file: "e2e/browser/a.admin.spec.ts", durationMs: 3_500 },
      { runner: "Playwright", file: "e2e/browser/b.viewer.spec.ts", durationMs: 1_000 },
    ]);
  });

  it("lists the slowest first, as many as asked", () => {
    const text = formatSlowestFiles(
      [
        { runner: "unit", file: "fast.test.ts", durationMs: 1_000 },
        { runner: "Playwright", file: "slow.spec.ts", durationMs: 95_000 },
        { runner: "api", file: "middle.test.ts", durationMs: 12_300 },
      ],
      2,
    );
    expect(text.split("\n")).toEqual([
      "Slowest 2 test files (from the JSON reports; a runner's files may overlap):",
      "   1m 35s  Playwright  slow.spec.ts",
      "   12.3 s  api         middle.test.ts",
    ]);
  });

  it("takes each report read by its kind", () => {
    const vitest = { testResults: [{ name: "/repo/x.test.ts", startTime: 0, endTime: 2_000 }] };
    const playwright = {
      suites: [
        {
          title: "y.spec.ts",
          file: "y.spec.ts",
          specs: [{ title: "y", tests: [{ status: "expected", results: [{ duration: 300, status: "passed" }] }] }],
        },
      ],
    };
    expect(
      fileTimes(root, [
        { runner: "unit", kind: "vitest", file: "vitest-unit.json", json: vitest },
        { runner: "Playwright", kind: "playwright", file: "playwright.json", json: playwright },
      ]),
    ).toEqual([
      { runner: "unit", file: "x.test.ts", durationMs: 2_000 },
      { runner: "Playwright", file: "y.spec.ts", durationMs: 300 },
    ]);
  });
});
