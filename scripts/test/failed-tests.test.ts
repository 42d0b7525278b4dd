import { describe, expect, it } from "vitest";
import { failedTests, formatFailedTests, playwrightFailures, vitestFailures } from "./failed-tests";

const root = "/repo";

describe("the failed tests of a run", () => {
  it("a vitest test that failed is named by file, line and full name, with its messages", () => {
    const report = {
      testResults: [
        {
          name: "/repo/server/a.test.ts",
          startTime: 0,
          endTime: 1,
          status: "failed",
          assertionResults: [
            { fullName: "a › passes", status: "passed", failureMessages: [] },
            { fullName: "a › breaks", status: "failed", failureMessages: ["AssertionError: expected 1 to be 2"], location: { line: 12 } },
          ],
        },
        {
          name: "/repo/server/b.test.ts",
          startTime: 0,
          endTime: 1,
          status: "passed",
          assertionResults: [{ fullName: "b", status: "passed" }],
        },
      ],
    };
    expect(vitestFailures("unit", report, root)).toEqual([
      { runner: "unit", where: "server/a.test.ts:12", title: "a › breaks", message: "AssertionError: expected 1 to be 2" },
    ]);
  });

  it("a vitest file that failed outside its tests (an import, a beforeAll) is named with the file's message", () => {
    const report = {
      testResults: [
        {
          name: "/repo/e2e/api/c.test.ts",
          startTime: 0,
          endTime: 1,
          status: "failed",
          message: "Cannot find module",
          assertionResults: [],
        },
      ],
    };
    expect(vitestFailures("api", report, root)).toEqual([
      { runner: "api", where: "e2e/api/c.test.ts", title: "(the file, outside its tests)", message: "Cannot find module" },
    ]);
  });

  it("a Playwright test whose last attempt failed is named with its project, describe blocks and status; a flaky one is not", () => {
    const report = {
      config: { rootDir: "/repo/e2e/browser" },
      errors: [{ message: "globalSetup: the app did not start" }],
      suites: [
        {
          title: "queue.admin.spec.ts",
          file: "queue.admin.spec.ts",
          suites: [
            {
              title: "the queue",
              file: "queue.admin.spec.ts",
              specs: [
                {
                  title: "approves",
                  line: 40,
                  tests: [
                    {
                      projectName: "admin",
                      status: "unexpected",
                      results: [{ duration: 60_000, status: "timedOut", error: { message: "Test timeout of 60000ms exceeded." } }],
                    },
                  ],
                },
                {
                  title: "retried",
                  line: 50,
                  tests: [
                    {
                      projectName: "admin",
                      status: "flaky",
                      results: [
                        { duration: 1, status: "failed" },
                        { duration: 1, status: "passed" },
                      ],
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    expect(playwrightFailures(report, root)).toEqual([
      { runner: "Playwright", where: "(outside the tests)", title: "", message: "globalSetup: the app did not start" },
      {
        runner: "Playwright",
        where: "e2e/browser/queue.admin.spec.ts:40",
        title: "[admin] › the queue › approves",
        message: "timedOut: Test timeout of 60000ms exceeded.",
      },
    ]);
  });

  it("takes each report read by its kind", () => {
    const vitest = {
      testResults: [
        { name: "/repo/x.test.ts", status: "failed", assertionResults: [{ fullName: "x", status: "failed", failureMessages: ["no"] }] },
      ],
    };
    expect(failedTests(root, [{ runner: "unit", kind: "vitest", file: "vitest-unit.json", json: vitest }])).toEqual([
      { runner: "unit", where: "x.test.ts", title: "x", message: "no" },
    ]);
  });

  it("prints each failure, then its error's first lines without colour codes, long lines cut", () => {
    const text = formatFailedTests(
      [
        {
          runner: "Playwright",
          where: "e2e/browser/a.admin.spec.ts:3",
          title: "[admin] › a",
          message: `failed: \u001b[31mError: expect(locator).toBeVisible()\u001b[39m\n\nLocator: getByRole('button')\nExpected: visible\nReceived: hidden\nCall log: …`,
        },
        { runner: "unit", where: "b.test.ts", title: "b", message: "x".repeat(300) },
      ],
      3,
    );
    expect(text.split("\n")).toEqual([
      "Failed tests (2):",
      "  Playwright  e2e/browser/a.admin.spec.ts:3  [admin] › a",
      "      failed: Error: expect(locator).toBeVisible()",
      "      Locator: getByRole('button')",
      "      Expected: visible",
      "  unit  b.test.ts  b",
      `      ${"x".repeat(199)}…`,
    ]);
  });
});
