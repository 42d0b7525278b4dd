// npm run bench:profile — where a request's time goes in the app process.
// Starts the production server under `node --cpu-prof`, drives one scenario,
// and prints self time grouped by where the code lives (Next, Prisma, pg,
// Node core, our code, GC, idle) and the heaviest functions.
// Options: --scenario list|approve|storm|report|nodes  --seconds 10  --connections 1  --known 300 (storm)  --skip-build
//          (report: inventory/report unchanged at 10,000 nodes; nodes: nodes/list page 100 of them)
import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { startPostgresCluster } from "../test/harness/postgres-cluster";
import { runNpmScript } from "../test/harness/run-npm-script";
import { startAppServer } from "../test/harness/start-app-server";
import { approvalTargets, BENCH_BEARER, createBenchWorld } from "./workload/dataset";
import { httpLoad } from "./http-load";
import { approveBody, listBody } from "./workload/scenarios";
import { summarizeProfile, type CpuProfile } from "./profile-summary";
import { bootStorm, printStorm } from "./boot-storm";
import { createBenchNodes, listNodesBody, reportBody } from "./node-scenario";

const { values: args } = parseArgs({
  options: {
    scenario: { type: "string", default: "list" },
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "1" },
    // storm only: known machines (and a tenth as many unknown)
    known: { type: "string", default: "300" },
    "skip-build": { type: "boolean", default: false },
  },
});
const seconds = Number(args.seconds);
const connections = Number(args.connections);
const profileDir = path.join("bench", "results", "profile");
const SCENARIOS = ["list", "approve", "storm", "report", "nodes"];

async function main() {
  if (!SCENARIOS.includes(args.scenario!)) throw new Error(`--scenario must be ${SCENARIOS.join(", ")}, not ${args.scenario}`);
  const cluster = await startPostgresCluster({ durable: true, log: () => {} });
  const env = { DATABASE_URL: cluster.url, NEXT_TELEMETRY_DISABLED: "1" };
  const client = new pg.Client({ connectionString: cluster.url });
  await rm(profileDir, { recursive: true, force: true });
  let requests = 0;
  try {
    await runNpmScript("db:migrate", env);
    if (!args["skip-build"]) await runNpmScript("build", env);
    await client.connect();
    await createBenchWorld(client);
    const server = await startAppServer({
      databaseUrl: cluster.url,
      logFile: path.join(profileDir, "server.log"),
      nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`],
      env: {
        BC_LOG_LEVEL: "warn",
        BC_WORKERS: "off",
        BC_DB_POOL_MAX: String(Math.max(connections, 2)),
        NEXTAUTH_SECRET: randomBytes(32).toString("base64"),
        // with DATABASE_URL the app refuses to start without it
        BC_CA_KEY_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      },
    });
    try {
      requests = await profileScenario(client, server.baseUrl);
    } finally {
      await server.stop(); // SIGTERM: Node writes the profile as it exits
    }
  } finally {
    await client.end().catch(() => {});
    await cluster.stop();
  }
  const files = (await readdir(profileDir)).filter((name) => name.endsWith(".cpuprofile"));
  if (files.length === 0) throw new Error(`no .cpuprofile in ${profileDir}: did the server exit cleanly?`);
  for (const file of files) {
    const profile = JSON.parse(await readFile(path.join(profileDir, file), "utf8")) as CpuProfile;
    console.log(`\n${file}`);
    console.log(summarizeProfile(profile, { requests }));
  }
}

function profileScenario(client: pg.Client, baseUrl: string): Promise<number> {
  if (args.scenario === "storm") return profileStorm(client, baseUrl);
  if (args.scenario === "report" || args.scenario === "nodes") return profileNodes(client, baseUrl);
  return profileQueue(client, baseUrl);
}

async function profileQueue(client: pg.Client, baseUrl: string): Promise<number> {
  const url = `${baseUrl}/api/compute/joinRequests/${args.scenario}`;
  const common = { url, bearer: BENCH_BEARER, connections, seconds };
  // warm up (JIT, connection pool) before the measured run
  await httpLoad({ ...common, seconds: 2, bodyFor: () => listBody("pending") });
  const targets = args.scenario === "approve" ? await approvalTargets(client, Math.round(seconds * 1000)) : [];
  const figures = await httpLoad({
    ...common,
    amount: args.scenario === "approve" ? targets.length : undefined,
    bodyFor: args.scenario === "approve" ? (i) => approveBody(targets[i]!) : () => listBody("pending"),
  });
  console.log(
    `${args.scenario} c=${connections}: ${figures.throughput.toFixed(0)} req/s, p50 ${figures.p50Ms} ms, errors ${figures.errors}`,
  );
  return figures.requests;
}

/** The daemon's unchanged inventory/report, or nodes/list, at the bench's 10,000 nodes. */
async function profileNodes(client: pg.Client, baseUrl: string): Promise<number> {
  const nodes = await createBenchNodes(client);
  const load =
    args.scenario === "report"
      ? {
          url: `${baseUrl}/api/compute/inventory/report`,
          bearer: "",
          bearerFor: (i: number) => nodes.tokens[i % nodes.tokens.length]!,
          bodyFor: () => reportBody(nodes),
        }
      : { url: `${baseUrl}/api/compute/nodes/list`, bearer: BENCH_BEARER, bodyFor: () => listNodesBody(nodes) };
  await httpLoad({ ...load, connections, seconds: 2 });
  const figures = await httpLoad({ ...load, connections, seconds });
  console.log(
    `${args.scenario} c=${connections}: ${figures.throughput.toFixed(0)} req/s, p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms, errors ${figures.errors}`,
  );
  return figures.requests;
}

/** A smaller boot storm than the bench's, at --connections concurrent. */
async function profileStorm(client: pg.Client, baseUrl: string): Promise<number> {
  const known = Number(args.known);
  const result = await bootStorm(client, baseUrl, { known, unknown: Math.ceil(known / 10), concurrency: connections });
  printStorm(result);
  return result.first.requests + result.retry.requests;
}

main().catch((error: unknown) => {
  console.error(`bench:profile failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
