import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoData } from "@/server/seed/seed-demo-data";
import { DEMO_RULES } from "@/server/seed/demo-rules";
import { callMethod } from "@/test/api/api-client";
import { createScratchDatabase, type ScratchDatabase } from "@/test/api/scratch-database";
import { startAppServer, type AppServer } from "@/test/harness/start-app-server";

// `npm run simulate -- rack` against the demo data (SPEC H2, issue 35), on a
// scratch database of its own: the rack lands in acme/fra1, whose queue the
// shared database's other tests and the console tests count.
const run = promisify(execFile);
const ACME_ADMIN = "bcsk_acmeadmin.demo-acme-admin-secret";
let scratch: ScratchDatabase;
let server: AppServer;
let stateDir: string;

beforeAll(async () => {
  scratch = await createScratchDatabase();
  await seedDemoData(scratch.db);
  server = await startAppServer({
    databaseUrl: scratch.url,
    logFile: "test-results/simulator-rack-server.log",
    env: { BC_CA_KEY_ENCRYPTION_KEY: process.env.BC_CA_KEY_ENCRYPTION_KEY!, BC_WORKERS: "off" },
  });
  stateDir = await mkdtemp(path.join(tmpdir(), "bc-rack-"));
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await scratch?.drop();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

/** `npm run simulate -- rack …` in a process of its own (node --import tsx: one process, not three). */
async function rack(...args: string[]) {
  const argv = ["--import", "tsx", "scripts/cli/simulate.ts", "rack", ...args, "--url", server.baseUrl, "--state-dir", stateDir];
  return run(process.execPath, argv).then(
    ({ stdout }) => ({ stdout, code: 0 }),
    (error: { stdout: string; stderr: string; code: number }) => ({ stdout: `${error.stdout}${error.stderr}`, code: error.code }),
  );
}

/** The rack's requests (hostnames <pool>-r<rack>-*) with what the rules recorded on each. */
async function rackRequests(prefix: string) {
  const requests = await scratch.db.joinRequest.findMany({ where: { hostname: { startsWith: prefix } }, orderBy: { hostname: "asc" } });
  const events = await scratch.db.event.findMany({ where: { requestId: { in: requests.map((request) => request.id) } } });
  return requests.map((request) => ({ request, events: events.filter((event) => event.requestId === request.id) }));
}

async function gpuBRule() {
  return scratch.db.approvalRule.findFirstOrThrow({ where: { poolId: "gpu-b", name: DEMO_RULES[0].name } });
}

describe("npm run simulate -- rack", () => {
  it("sends the rack through fra1's demo enrollment key, named as gpu-b's seeded shadow rule expects: it matches each, decides none", async () => {
    const { stdout, code } = await rack("--count", "12", "--pool", "gpu-b", "--rack", "07", "--concurrency", "4");
    expect(code, stdout).toBe(0);
    expect(stdout).toContain(
      "rack r07: 12 machines gpu-b-r07-001.fra1.acme.test … gpu-b-r07-012.fra1.acme.test join site fra1 through enrollment key demofra1",
    );
    expect(stdout).toMatch(/joined in [\d.]+ s: admitted 0, pending 12, rejected 0\n/);
    expect(stdout).toMatch(/retried in [\d.]+ s .*: admitted 0, pending 12, rejected 0\n/);
    const rule = await gpuBRule();
    const requests = await rackRequests("gpu-b-r07-");
    expect(requests).toHaveLength(12);
    for (const { request, events } of requests) {
      expect(request).toMatchObject({ state: "pending", poolId: null, siteId: "fra1", enrollKeyId: "demofra1" });
      expect(request.rulesEvaluatedAt).not.toBeNull();
      const matched = events.filter((event) => event.type === "security.join-request.rule-matched");
      expect(matched.map((event) => event.data)).toEqual([expect.objectContaining({ ruleId: rule.id, mode: "shadow", would: "approve" })]);
    }
    // each machine's state is saved, so one can be retried on its own
    const saved = JSON.parse(await readFile(path.join(stateDir, "gpu-b-r07-001", "machine.json"), "utf8")) as { site: string };
    expect(saved.site).toBe("fra1");
  }, 120_000);

  it("with the rule switched to enforce, the retry round is admitted: the rule claimed and approved each for gpu-b", async () => {
    const rule = await gpuBRule();
    const update = await callMethod(
      "approvalRules/update",
      { tenantId: "acme", poolId: "gpu-b", ruleId: rule.id, mode: "enforce" },
      { bearer: ACME_ADMIN, baseUrl: server.baseUrl },
    );
    expect(update.status, update.text).toBe(200);
    const { stdout, code } = await rack("--count", "10", "--rack", "08", "--concurrency", "8");
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(/joined in [\d.]+ s: admitted 0, pending 10, rejected 0\n/);
    expect(stdout).toMatch(/retried in [\d.]+ s .*: admitted 10, pending 0, rejected 0\n/);
    for (const { request } of await rackRequests("gpu-b-r08-")) {
      expect(request).toMatchObject({ state: "consumed", poolId: "gpu-b", decidedBy: `rule:${rule.id}@2` });
    }
  }, 120_000);

  it("refuses a count out of range with exit 2, before any join", async () => {
    const { stdout, code } = await rack("--count", "0");
    expect(code).toBe(2);
    expect(stdout).toContain("--count must be 1–10000");
  });
});
