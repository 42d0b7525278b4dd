// npm test — the whole suite on a throwaway PostgreSQL of its own:
// start the cluster → migrate → seed → build → vitest (unit + API over HTTP).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { startPostgresCluster } from "./postgres-cluster";
import { runNpmScript } from "./run-npm-script";

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

async function main(): Promise<number> {
  const cluster = await startPostgresCluster({ log: (line) => console.log(`[postgres] ${line}`) });
  try {
    const env = {
      DATABASE_URL: cluster.url,
      NEXT_TELEMETRY_DISABLED: "1",
      // Encrypts the tenant CAs' keys in this run's throwaway database (README "CA key").
      BC_CA_KEY_ENCRYPTION_KEY: process.env.BC_CA_KEY_ENCRYPTION_KEY ?? randomBytes(32).toString("base64"),
    };
    console.log(`\n▶ PostgreSQL for this run: ${cluster.url}`);
    await runNpmScript("db:migrate", env);
    await runNpmScript("db:seed", env);
    if (!process.env.BC_TEST_SKIP_BUILD) await runNpmScript("build", env);
    const reportFile = "test-results/vitest.json";
    const code = await run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${reportFile}`, ...process.argv.slice(2)], env);
    const report = JSON.parse(await readFile(reportFile, "utf8")) as VitestJsonReport;
    // The plain closing line CI reads.
    console.log(`\n${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped`);
    return code;
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
