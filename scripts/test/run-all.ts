// npm test — the whole suite on a throwaway PostgreSQL of its own:
// check the system (as root: install what is missing) → start the cluster
// → migrate → seed → two lanes side by side: the unit tests (while the app
// builds) and Playwright (the console in Chromium, on a copy of the database)
// once it is built, each lane then taking the next of the API tests, the
// fault suite and the benchmark's smoke run → a table of each phase's time.
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { startPostgresCluster } from "../../test/harness/postgres-cluster";
import { runNpmScript } from "../../test/harness/run-npm-script";
import { ensureSystemRequirements } from "../../test/harness/system-requirements";
import { formatPhaseTable, startPhaseClock, type PhaseClock, type PhaseOutcome } from "./phase-times";
import { failedTests, formatFailedTests } from "./failed-tests";
import { readReports, type Report } from "./read-reports";
import { fileTimes, formatSlowestFiles } from "./slowest-files";
import { copyDatabase, PLAYWRIGHT_REPORT, runCommand, runPlaywright, runVitest, type SuiteResult } from "./suite-runs";

/** How many of the slowest test files the run lists: enough to see where the time goes. */
const SLOWEST_FILES = 20;

type Env = Record<string, string>;

interface Run {
  name: string;
  /** runs against the production build, so waits for it */
  needsBuild: boolean;
  /** the JSON report it writes, read again for the slowest files and the failed tests */
  report: Report;
  run(env: Env): Promise<SuiteResult>;
}

const vitestRun = (name: string, args: string[], file: string, needsBuild = true): Run => ({
  name: `vitest${name ? ` ${name}` : ""}`,
  needsBuild,
  report: { runner: name || "vitest", kind: "vitest", file },
  run: (env) => runVitest(args, env, file),
});

/** One vitest run of `project` and of the projects run with it (reported as one, under the first). */
const vitestProject = (project: string, needsBuild = true, alongside: string[] = []): Run =>
  vitestRun(
    project,
    [project, ...alongside].flatMap((name) => ["--project", name]),
    `test-results/vitest-${project}.json`,
    needsBuild,
  );

/**
 * Two lanes side by side, as the machine has two cores: the unit tests (no
 * build needed: they run while the app builds) in one, Playwright (the
 * longest run) in the other. Whichever lane is free next takes the next run
 * of the queue — the API tests, the fault suite (with its Patroni cluster),
 * the benchmark's smoke run — so neither lane idles while the other has work.
 * Playwright gets a copy of the seeded database: specs and API tests both
 * change data (approve, reject, retention) and assume only their own changes.
 * faults and bench start clusters of their own.
 */
function plan(vitestArgs: string[]): { lanes: Run[][]; queue: Run[] } {
  const browser: Run = {
    name: "Playwright",
    needsBuild: true,
    report: { runner: "Playwright", kind: "playwright", file: PLAYWRIGHT_REPORT },
    run: (env) => runPlaywright({ ...env, DATABASE_URL: env.BC_BROWSER_DATABASE_URL! }, "[browser]"),
  };
  // `npm test -- <vitest filters>` (docs/testing.md): one vitest run with them.
  if (vitestArgs.length) return { lanes: [[vitestRun("", vitestArgs, "test-results/vitest.json")], [browser]], queue: [] };
  return {
    // unit-own-process: the unit files that need a process of their own (vitest.config.ts)
    lanes: [[vitestProject("unit", false, ["unit-own-process"])], [browser]],
    queue: [vitestProject("api"), vitestProject("faults"), vitestProject("bench")],
  };
}

const outcome = (result: SuiteResult): PhaseOutcome => (result.code === 0 && result.failed === 0 ? "passed" : "failed");

/**
 * A lane's own runs, then the queue's until it is empty (taken one at a
 * time: the other lane takes from the same queue). A run that needs a build
 * that failed is not started: it counts as skipped, the failed build fails the whole.
 */
async function runLane(lane: Run[], queue: Run[], env: Env, clock: PhaseClock, built: Promise<boolean>): Promise<SuiteResult[]> {
  const results: SuiteResult[] = [];
  for (let next = lane.shift() ?? queue.shift(); next; next = lane.shift() ?? queue.shift()) {
    const { name, needsBuild, run } = next;
    if (needsBuild && !(await built)) clock.skip(name);
    else results.push(await clock.time(name, () => run(env), outcome));
  }
  return results;
}

function build(env: Env, clock: PhaseClock): Promise<boolean> {
  if (process.env.BC_TEST_SKIP_BUILD) {
    clock.skip("build");
    return Promise.resolve(true);
  }
  const code = clock.time(
    "build",
    () => runCommand("npm", ["run", "--silent", "build"], env, "[build]"),
    (exit) => (exit === 0 ? "passed" : "failed"),
  );
  return code.then((exit) => exit === 0);
}

async function main(clock: PhaseClock): Promise<number> {
  if (
    !(await clock.time(
      "system check",
      () => ensureSystemRequirements(),
      (ok) => (ok ? "passed" : "failed"),
    ))
  )
    return 1;
  // The build reads no database: it starts at once, beside the cluster, the
  // migrations and the seed, and Playwright (the longest run) waits for it.
  const built = build({ NEXT_TELEMETRY_DISABLED: "1" }, clock);
  const cluster = await clock.time("PostgreSQL start", () => startPostgresCluster({ log: (line) => console.log(`[postgres] ${line}`) }));
  try {
    const env: Env = {
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
    await clock.time("migrate", () => runNpmScript("db:migrate", env));
    await clock.time("seed", () => runNpmScript("db:seed", env));
    const testDatabase = new URL(cluster.url).pathname.slice(1);
    env.BC_BROWSER_DATABASE_URL = await clock.time("copy for Playwright", () =>
      copyDatabase(cluster.adminUrl, testDatabase, `${testDatabase}_browser`),
    );
    const { lanes, queue } = plan(process.argv.slice(2));
    const runs = [...lanes.flat(), ...queue];
    // a run skipped for a failed build must not leave an earlier run's report to be read
    await Promise.all(runs.map((run) => rm(run.report.file, { force: true })));
    const results = (await Promise.all(lanes.map((lane) => runLane(lane, queue, env, clock, built)))).flat();
    // before the phase table, which stays last
    const reports = await readReports(
      process.cwd(),
      runs.map((run) => run.report),
    );
    const times = fileTimes(process.cwd(), reports);
    if (times.length) console.log(`\n${formatSlowestFiles(times, SLOWEST_FILES)}`);
    const failures = failedTests(process.cwd(), reports);
    if (failures.length) console.log(`\n${formatFailedTests(failures)}`);
    const sum = (key: "passed" | "failed" | "skipped") => results.reduce((total, result) => total + result[key], 0);
    // The plain line CI reads; the phase table follows it.
    console.log(`\n${sum("passed")} passed, ${sum("failed")} failed, ${sum("skipped")} skipped`);
    if (!(await built)) return 1;
    return results.find((result) => result.code !== 0)?.code ?? (sum("failed") ? 1 : 0);
  } finally {
    await cluster.stop();
  }
}

const clock = startPhaseClock();
main(clock)
  .catch((error: unknown) => {
    console.error(`npm test failed to run: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  })
  .then((code) => {
    console.log(`\n${formatPhaseTable(clock.phases(), clock.elapsedMs())}`);
    process.exit(code);
  });
