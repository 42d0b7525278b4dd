// The two test runners `npm test` drives (vitest, Playwright), each reduced to
// an exit code and the counts its JSON report gives.
import { spawn } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import { createInterface } from "node:readline";
import { Client, escapeIdentifier } from "pg";

export interface SuiteResult {
  code: number;
  passed: number;
  failed: number;
  skipped: number;
}

/**
 * Runs a command to its end. With `prefix`, each output line is prefixed: two
 * runners printing side by side stay readable.
 */
export function runCommand(command: string, args: string[], env: Record<string, string>, prefix?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: prefix ? ["ignore", "pipe", "pipe"] : "inherit", env: { ...process.env, ...env } });
    if (prefix) {
      for (const [stream, sink] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ] as const) {
        createInterface({ input: stream! }).on("line", (line) => sink.write(`${prefix} ${line}\n`));
      }
    }
    child.on("error", reject);
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

/** A run whose report is missing or unreadable counts as one failure. */
const NO_REPORT = { passed: 0, failed: 1, skipped: 0 };

/** `npx vitest run <args>`, with its JSON report in `reportFile`. */
export async function runVitest(args: string[], env: Record<string, string>, reportFile: string): Promise<SuiteResult> {
  await rm(reportFile, { force: true });
  const code = await runCommand(
    "npx",
    ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${reportFile}`, ...args],
    env,
  );
  try {
    const report = JSON.parse(await readFile(reportFile, "utf8")) as Record<
      "numPassedTests" | "numFailedTests" | "numPendingTests",
      number
    >;
    return { code, passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests };
  } catch {
    return { code: code || 1, ...NO_REPORT };
  }
}

/** Where playwright.config.ts has Playwright write its JSON report. */
export const PLAYWRIGHT_REPORT = "test-results/playwright.json";

/** Runs Playwright; counts from its JSON report (flaky passed on retry). */
export async function runPlaywright(env: Record<string, string>, prefix: string): Promise<SuiteResult> {
  const file = PLAYWRIGHT_REPORT;
  await rm(file, { force: true });
  const code = await runCommand("npx", ["playwright", "test"], env, prefix);
  try {
    const { stats } = JSON.parse(await readFile(file, "utf8")) as {
      stats: Record<"expected" | "unexpected" | "flaky" | "skipped", number>;
    };
    return { code, passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped };
  } catch {
    return { code: code || 1, ...NO_REPORT };
  }
}

/**
 * A copy of a migrated and seeded database, made by PostgreSQL from it as a
 * template: a file copy, far cheaper than migrating and seeding again. Nobody
 * may be connected to the template meanwhile.
 */
export async function copyDatabase(adminUrl: string, template: string, name: string): Promise<string> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${escapeIdentifier(name)} TEMPLATE ${escapeIdentifier(template)}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
