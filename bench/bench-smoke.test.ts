import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { runNpmScript } from "../test/harness/run-npm-script";
import { gatingVerdicts, type StormResult } from "./boot-storm";
import type { ScrapeFigures } from "./metrics-scrape";

// `npm run bench` is not part of the suite; this tiny run proves the harness
// still works end to end (its own cluster, dataset, server, load, both floors
// (pg, and the HTTP and Next.js floors after their same-answers checks, in the
// node phase too), the boot storm, JSON).
// What gates it: every scenario ran, without errors, against its floors; the
// floor answers as the app does; the plan uses the index; the pages have
// their scripts; the storm's outcomes. What does not: any speed figure (the
// storm's p99 included), which only a full `npm run bench` judges.
it("npm run bench -- --smoke measures every scenario against its floors without errors", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "bc-bench-"));
  const out = path.join(dir, "smoke.json");
  try {
    await runNpmScript("bench", { DATABASE_URL: "" }, ["--smoke", "--skip-build", "--out", out]);
    const result = JSON.parse(await readFile(out, "utf8")) as {
      rows: {
        scenario: string;
        connections: number;
        http: { requests: number; errors: number };
        floor?: { requests: number; errors: number };
        httpFloor?: { requests: number; errors: number; throughput: number };
        nextFloor?: { requests: number; errors: number; throughput: number };
      }[];
      explainAtLargest: Record<string, string>;
      pageWeight: { path: string; scripts: number; gzipBytes: number };
      nodePageWeight: { path: string; scripts: number; gzipBytes: number };
      bootStorm: StormResult;
      rulesTest: { requests: number; runs: number; p99Ms: number; held: boolean | null };
      metricsScrape: { first: ScrapeFigures; underLoad: ScrapeFigures[] };
    };
    const scenarios = new Set(result.rows.map((row) => row.scenario));
    expect([...scenarios].sort()).toEqual([
      "approvalRules/test (1k requests)",
      "approve (distinct pending)",
      "inventory/report changed (1k nodes)",
      "inventory/report unchanged (1k nodes)",
      "join retry, consumed (200 + cert)",
      "join, deferred (202)",
      "list all, deep cursor",
      "list pending (page 100)",
      "nodes/list (page 100 of 1k)",
    ]);
    for (const row of result.rows) {
      expect(row.http.requests, `${row.scenario} c${row.connections}`).toBeGreaterThan(0);
      expect(row.http.errors, `${row.scenario} c${row.connections}`).toBe(0);
      // the machine's path, changed reports and the rules' dry run have no floor
      if (/^(join|inventory\/report changed|approvalRules)/.test(row.scenario)) continue;
      // the node phase's unchanged report and node list have the two HTTP floors, not the pg one
      if (!/^(inventory|nodes)\//.test(row.scenario)) {
        expect(row.floor?.requests, `${row.scenario} floor`).toBeGreaterThan(0);
        expect(row.floor?.errors, `${row.scenario} floor`).toBe(0);
      }
      expect(row.httpFloor?.requests, `${row.scenario} c${row.connections} http floor`).toBeGreaterThan(0);
      expect(row.httpFloor?.throughput, `${row.scenario} c${row.connections} http floor`).toBeGreaterThan(0);
      expect(row.httpFloor?.errors, `${row.scenario} c${row.connections} http floor`).toBe(0);
      expect(row.nextFloor?.requests, `${row.scenario} c${row.connections} next floor`).toBeGreaterThan(0);
      expect(row.nextFloor?.errors, `${row.scenario} c${row.connections} next floor`).toBe(0);
    }
    expect(result.explainAtLargest.pending).toMatch(/Index Scan/);
    for (const weight of [result.pageWeight, result.nodePageWeight]) {
      expect(weight.scripts, weight.path).toBeGreaterThan(0);
      expect(weight.gzipBytes, weight.path).toBeGreaterThan(10_000);
    }
    // The storm's outcomes gate the smoke; its speed (p99) is a figure judged
    // only by a full `npm run bench`, never by a timed test (issue 33).
    const storm = result.bootStorm;
    expect(storm.smoke).toBe(true);
    for (const verdict of gatingVerdicts(storm)) expect(verdict.held, `${verdict.target}: ${verdict.seen}`).toBe(true);
    expect(storm.first.statuses).toEqual({ "200": storm.known, "202": storm.unknown });
    expect(storm.retry.statuses).toEqual({ "409": storm.known, "202": storm.unknown });
    // the dry run read all 1,000 of its pool's requests (checked in the bench) and was timed; its 2 s target is judged at 10,000 only
    expect(result.rulesTest).toMatchObject({ requests: 1_000, runs: 3, held: null });
    expect(result.rulesTest.p99Ms).toBeGreaterThan(0);
    // GET /metrics right after start and under load: answered, and never backwards (its time is a figure, not gated here)
    expect(result.metricsScrape.first).toMatchObject({ scrapes: 1, failed: 0 });
    expect(result.metricsScrape.underLoad.length).toBeGreaterThan(0);
    for (const figures of result.metricsScrape.underLoad) {
      expect(figures.scrapes).toBeGreaterThan(0);
      expect(figures).toMatchObject({ failed: 0, backwards: 0 });
    }
    expect(result.nodePageWeight.path).toMatch(/^\/pools\/[^/]+\/nodes\/node_[0-9a-z]{26}$/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 480_000); // its own cluster, build-free server and its load runs of half a second each
