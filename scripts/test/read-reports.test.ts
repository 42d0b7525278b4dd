import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readReports } from "./read-reports";

describe("reading a run's JSON reports", () => {
  it("reads the reports it is given and leaves out one that is missing or not JSON", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "bc-reports-"));
    try {
      await writeFile(path.join(dir, "vitest-unit.json"), JSON.stringify({ testResults: [] }));
      await writeFile(path.join(dir, "vitest-api.json"), "{ cut off");
      const reports = await readReports(dir, [
        { runner: "unit", kind: "vitest", file: "vitest-unit.json" },
        { runner: "api", kind: "vitest", file: "vitest-api.json" },
        { runner: "Playwright", kind: "playwright", file: "playwright.json" },
      ]);
      expect(reports).toEqual([{ runner: "unit", kind: "vitest", file: "vitest-unit.json", json: { testResults: [] } }]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
