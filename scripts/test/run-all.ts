// npm test — the whole suite on a throwaway PostgreSQL of its own:
// check the system (as root: install what is missing) → start the cluster
// → migrate → seed → build → vitest (unit + API over HTTP) → Playwright (the
// console in Chromium).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { startPostgresCluster } from "../../test/harness/postgres-cluster";
import { ensureSystemRequirements } from "../../test/harness/system-requirements";
import { runNpmScript } from "../../test/harness/run-npm-script";

function run(command: string, args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
    child.on("error", reject);
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

interface VitestJsonReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
}

/** Runs Playwright; counts from its JSON report (flaky passed on retry); no report counts as one failure. */
async function runPlaywright(env: Record<string, string>) {
  const file = "test-results/playwright.json"; // playwright.config.ts writes it
  await rm(file, { force: true });
  const code = await run("npx", ["playwright", "test"], env);
  try {
    const { stats } = JSON.parse(await readFile(file, "utf8")) as {
      stats: Record<"expected" | "unexpected" | "flaky" | "skipped", number>;
    };
    return { code, passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped };
  } catch {
    return { code: code || 1, passed: 0, failed: 1, skipped: 0 };
  }
}

async function main(): Promise<number> {
  if (!(await ensureSystemRequirements())) return 1;
  const cluster = await startPostgresCluster({ log: (line) => console.log(`[postgres] ${line}`) });
  try {
    const env = {
      DATABASE_URL: cluster.url,
      NEXT_TELEMETRY_DISABLED: "1",
      // Encrypts the tenant CAs' keys in this run's throwaway database (README "CA key").
      BC_CA_KEY_ENCRYPTION_KEY: process.env.BC_CA_KEY_ENCRYPTION_KEY ?? randomBytes(32).toString("base64"),
      // With DATABASE_URL an app process refuses to start without it (README "Configuration").
      NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? randomBytes(32).toString("base64"),
      // No background workers in the shared test servers: retention would mark
      // the requests tests keep past expiry. Worker tests run their own, per tenant.
      BC_WORKERS: "off",
      // The tests' webhook receivers listen on loopback over http (README "Events and webhooks").
      BC_WEBHOOK_ALLOW_PRIVATE: "1",
    };
    console.log(`\n▶ PostgreSQL for this run: ${cluster.url}`);
    await runNpmScript("db:migrate", env);
    await runNpmScript("db:seed", env);
    if (!process.env.BC_TEST_SKIP_BUILD) await runNpmScript("build", env);
    const reportFile = "test-results/vitest.json";
    const code = await run(
      "npx",
      ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${reportFile}`, ...process.argv.slice(2)],
      env,
    );
    const report = JSON.parse(await readFile(reportFile, "utf8")) as VitestJsonReport;
    const browser = await runPlaywright(env);
    const passed = report.numPassedTests + browser.passed;
    const failed = report.numFailedTests + browser.failed;
    // The plain closing line CI reads.
    console.log(`\n${passed} passed, ${failed} failed, ${report.numPendingTests + browser.skipped} skipped`);
    return code || browser.code;
  } finally {
    await cluster.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`npm test failed to run: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
