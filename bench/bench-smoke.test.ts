import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { runNpmScript } from "../test/harness/run-npm-script";
import { stormVerdicts, type StormResult } from "./boot-storm";

// `npm run bench` is not part of the suite; this tiny run proves the harness
// still works end to end (its own cluster, dataset, server, load, both floors
// (pg, and the HTTP floor after its same-answers check), the boot storm, JSON).
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
      }[];
      explainAtLargest: Record<string, string>;
      pageWeight: { path: string; scripts: number; gzipBytes: number };
      nodePageWeight: { path: string; scripts: number; gzipBytes: number };
      bootStorm: StormResult;
    };
    const scenarios = new Set(result.rows.map((row) => row.scenario));
    expect([...scenarios].sort()).toEqual([
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
      if (/^(join|inventory|nodes)/.test(row.scenario)) continue; // the machine's path and the node phase have no floor
      expect(row.floor?.requests, `${row.scenario} floor`).toBeGreaterThan(0);
      expect(row.floor?.errors, `${row.scenario} floor`).toBe(0);
      expect(row.httpFloor?.requests, `${row.scenario} c${row.connections} http floor`).toBeGreaterThan(0);
      expect(row.httpFloor?.throughput, `${row.scenario} c${row.connections} http floor`).toBeGreaterThan(0);
      expect(row.httpFloor?.errors, `${row.scenario} c${row.connections} http floor`).toBe(0);
    }
    expect(result.explainAtLargest.pending).toMatch(/Index Scan/);
    for (const weight of [result.pageWeight, result.nodePageWeight]) {
      expect(weight.scripts, weight.path).toBeGreaterThan(0);
      expect(weight.gzipBytes, weight.path).toBeGreaterThan(10_000);
    }
    // the storm's outcome (not its timing, which a shared CI machine cannot promise)
    const storm = result.bootStorm;
    for (const verdict of stormVerdicts(storm).filter((v) => !v.target.startsWith("p99")))
      expect(verdict.held, `${verdict.target}: ${verdict.seen}`).toBe(true);
    expect(storm.first.statuses).toEqual({ "200": storm.known, "202": storm.unknown });
    expect(storm.retry.statuses).toEqual({ "409": storm.known, "202": storm.unknown });
    expect(result.nodePageWeight.path).toMatch(/^\/pools\/[^/]+\/nodes\/node_[0-9a-z]{26}$/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 480_000); // its own cluster, build-free server and 22 short load runs: ~2.5 min alone, 4+ min beside the rest of the suite
