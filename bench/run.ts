// npm run bench — how the queue's cost grows with the table, and how far the
// full stack is from two floors: the same SQL through `pg` on the same PostgreSQL,
// and a bare node:http server answering the same bytes with it (bench/http-floor);
// then the node phase at 10,000 and 100,000 nodes (10 snapshots each): inventory/report unchanged
// and nodes/list beside both floors, then changed reports;
// then approvalRules/test over 10,000 requests (issue 35: within 2 s).
// Options: --sizes 1000,100000,1000000  --seconds 10  --connections 1,32
//          --processes N (app processes, as `npm start` runs them; default: one per core)
//          --smoke (tiny: 1k rows, half a second a run, connections 1,4, a few joins and approvals)  --skip-build  --out FILE
//          --phases queue,nodes,rules,storm (which to run; default all: a change to one is measured without waiting for the rest)
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { startPostgresCluster } from "../test/harness/postgres-cluster";
import { runNpmScript } from "../test/harness/run-npm-script";
import { freePort, startAppServer } from "../test/harness/start-app-server";
import { addMixedRequests, approvalTargets, BENCH_BEARER, createBenchWorld, deepCursor, HOT, tableSize } from "./workload/dataset";
import { httpLoad } from "./http-load";
import { floorLoad } from "./floor-load";
import { approveBody, floorApprove, floorList, listBody } from "./workload/scenarios";
import { explainList } from "./explain";
import { checkSameAnswers } from "./http-floor/check-same-answers";
import { nextFloorAt, publishedAt, type Endpoint } from "./http-floor/endpoint";
import { startHttpFloor } from "./http-floor/start-http-floor";
import { approveAllJoins, createJoinPool, JOIN_BEARER, makeJoinBodies } from "./join-scenario";
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { createBenchUser, queuePageWeight, type PageWeight } from "./page-weight";
import { printStorm, stormOnFreshServer, stormOptions, type StormResult } from "./boot-storm";
import { printTable, type Row } from "./report";
import { measureNodePhase } from "./node-phase";
import { measureRow, type Runs } from "./measure-row";
import { printRulesTest, rulesTestPhase, type RulesTestResult } from "./rules-test-scenario";
import { firstScrape, scrapeDuring, scrapeVerdict, type ScrapeFigures } from "./metrics-scrape";

const PHASES = ["queue", "nodes", "rules", "storm"] as const;

const { values: args } = parseArgs({
  options: {
    sizes: { type: "string", default: "1000,100000,1000000" },
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "1,32" },
    smoke: { type: "boolean", default: false },
    processes: { type: "string", default: String(availableParallelism()) },
    "skip-build": { type: "boolean", default: false },
    out: { type: "string" },
    phases: { type: "string", default: PHASES.join(",") },
  },
});
const sizes = (args.smoke ? "1000" : args.sizes!).split(",").map(Number);
// a smoke run only shows each scenario answers: half a second of each is hundreds of requests
const seconds = args.smoke ? 0.5 : Number(args.seconds);
const connectionsList = (args.smoke ? "1,4" : args.connections!).split(",").map(Number);
const processes = Number(args.processes);
const phases = new Set(args.phases!.split(","));
for (const phase of phases) {
  if (!(PHASES as readonly string[]).includes(phase)) throw new Error(`--phases: unknown phase "${phase}" (one of ${PHASES.join(", ")})`);
}
// each process's pool can hold every connection the load generator opens
const poolMax = Math.max(...connectionsList);

async function main() {
  // one key for both servers: the first makes the tenant CA the storm's signs with
  const caKey = randomBytes(32).toString("base64");
  const cluster = await startPostgresCluster({ durable: true, log: (line) => console.log(`[postgres] ${line}`) });
  const env = { DATABASE_URL: cluster.url, NEXT_TELEMETRY_DISABLED: "1" };
  const client = new pg.Client({ connectionString: cluster.url });
  const rows: Row[] = [];
  let explain: unknown;
  let pageWeight: PageWeight | undefined;
  let nodePage: PageWeight | undefined;
  let storm: StormResult | undefined;
  let rulesTest: RulesTestResult | undefined;
  const metricsToken = randomBytes(24).toString("base64url");
  // turns on the Next.js floor in the app for this run only (server/bench-floor/serve-floor.ts)
  const benchFloorToken = randomBytes(32).toString("base64url");
  const metricsScrape: { first?: ScrapeFigures; underLoad: (ScrapeFigures & { rows: number; connections: number; throughput: number })[] } =
    { underLoad: [] };
  try {
    await runNpmScript("db:migrate", env);
    if (!args["skip-build"]) await runNpmScript("build", env);
    await client.connect();
    await createBenchWorld(client);
    await createJoinPool(client);
    await createBenchUser(client, HOT.tenantId);
    // scraped on the primary's port of its own, as a deployment under load should be (docs/operations.md)
    const metricsUrl = `http://127.0.0.1:${await freePort()}`;
    const server = await startAppServer({
      databaseUrl: cluster.url,
      logFile: "bench/results/server.log.tmp",
      processes,
      env: {
        BC_LOG_LEVEL: "warn",
        // retention would mark the dataset's expired rows while we measure
        BC_WORKERS: "off",
        BC_DB_POOL_MAX: String(poolMax),
        BC_CA_KEY_ENCRYPTION_KEY: caKey,
        // the join scenario defers thousands of machines into one pool
        BC_MAX_PENDING_PER_POOL: "100000000",
        BC_MAX_PENDING_PER_SITE: "100000000",
        // ... through one join token, faster than its rate cap allows (the cap's own cost is still paid)
        BC_JOIN_MAX_PER_MINUTE: "1000000",
        NEXTAUTH_SECRET: randomBytes(32).toString("base64"),
        BC_METRICS_TOKEN: metricsToken,
        BC_METRICS_PORT: new URL(metricsUrl).port,
        BC_METRICS_HOST: "127.0.0.1",
        BC_BENCH_FLOOR_TOKEN: benchFloorToken,
      },
    });
    const app = publishedAt("the app", server.baseUrl);
    const nextFloor = nextFloorAt(server.baseUrl, benchFloorToken);
    // as a Prometheus server scrapes an app that just started (its other processes still starting)
    metricsScrape.first = await firstScrape(metricsUrl, metricsToken);
    console.log(scrapeVerdict("GET /metrics right after start", metricsScrape.first));
    const floorStarting = startHttpFloor({ databaseUrl: cluster.url, processes, poolMax, logFile: "bench/results/http-floor.log.tmp" });
    try {
      const httpFloor = publishedAt("HTTP floor", (await floorStarting).baseUrl);
      console.log(`App and HTTP floor: ${processes} process(es) each behind one port`);
      pageWeight = await queuePageWeight(server.baseUrl, HOT.poolId);
      console.log(
        `Queue page ${pageWeight.path}: ${pageWeight.scripts} scripts, ${(pageWeight.gzipBytes / 1000).toFixed(1)} kB gzipped (${(pageWeight.rawBytes / 1000).toFixed(1)} kB raw)`,
      );
      let loaded = await tableSize(client);
      for (const size of phases.has("queue") ? sizes : []) {
        if (size > loaded) await addMixedRequests(client, size - loaded);
        await client.query("VACUUM ANALYZE join_requests");
        loaded = await tableSize(client);
        const cursor = await deepCursor(client);
        console.log(`\n▶ ${loaded.toLocaleString("en")} join requests`);
        // the floor must answer what the app answers, or its figures mean nothing
        await checkSameAnswers(client, app, httpFloor, cursor);
        await checkSameAnswers(client, app, nextFloor, cursor);
        console.log(
          "HTTP and Next.js floors answer as the app does (list pending, list all from a cursor: same bytes; approve: same shape and event)",
        );
        const measure = (scenario: string, connections: number, runs: Runs) =>
          // a smoke run measures nothing worth a warm-up per side
          measureRow(rows, { size, rows: loaded, scenario, connections }, runs, { warmUp: !args.smoke });
        // Warm every app process and HTTP floor process (JIT, connection pools)
        // before measuring: each holds its own, and a cold one skews the first run it serves.
        for (const at of [app, httpFloor, nextFloor]) {
          await httpLoad({
            url: at.url("joinRequests/list"),
            bearer: BENCH_BEARER,
            headers: at.headers,
            connections: Math.max(...connectionsList, processes),
            seconds: args.smoke ? seconds : 3,
            bodyFor: () => listBody("pending"),
          });
        }
        for (const connections of connectionsList) {
          const common = { bearer: BENCH_BEARER, connections, seconds };
          const list = (at: Endpoint, state: "pending" | "all", from?: string) => () =>
            httpLoad({ ...common, url: at.url("joinRequests/list"), headers: at.headers, bodyFor: () => listBody(state, from) });
          await measure("list pending (page 100)", connections, {
            http: list(app, "pending"),
            floor: () => floorLoad({ databaseUrl: cluster.url, concurrency: connections, seconds, run: (c) => floorList(c, "pending") }),
            httpFloor: list(httpFloor, "pending"),
            nextFloor: list(nextFloor, "pending"),
          });
          if (connections === poolMax) {
            // GET /metrics scraped as Prometheus would while the app serves the
            // most connections, in a run of its own: each scrape costs the app
            // processes their collect and PostgreSQL the gauges' reads, which
            // the row's app run must not pay for when its floors' runs do not.
            if (!args.smoke) await list(app, "pending")(); // warm, as each side of a row is
            const { result, scrapes } = await scrapeDuring(metricsUrl, metricsToken, list(app, "pending")());
            metricsScrape.underLoad.push({ rows: loaded, connections, throughput: result.throughput, ...scrapes });
            console.log(
              scrapeVerdict(
                `GET /metrics under ${connections} connections (list pending at ${result.throughput.toFixed(0)} req/s)`,
                scrapes,
              ),
            );
          }
          await measure("list all, deep cursor", connections, {
            http: list(app, "all", cursor),
            floor: () =>
              floorLoad({ databaseUrl: cluster.url, concurrency: connections, seconds, run: (c) => floorList(c, "all", cursor) }),
            httpFloor: list(httpFloor, "all", cursor),
            nextFloor: list(nextFloor, "all", cursor),
          });
          // each run approves requests of its own, made just before it
          const approve = (at: Endpoint) => async () => {
            const targets = await approvalTargets(client, approvalsFor(connections));
            return httpLoad({
              ...common,
              url: at.url("joinRequests/approve"),
              headers: at.headers,
              amount: targets.length,
              bodyFor: (i) => approveBody(targets[i % targets.length]!),
            });
          };
          await measure("approve (distinct pending)", connections, {
            http: approve(app),
            floor: async () => {
              const targets = await approvalTargets(client, approvalsFor(connections));
              const run = (c: pg.PoolClient, i: number) => floorApprove(c, targets[i]!);
              return floorLoad({ databaseUrl: cluster.url, concurrency: connections, seconds, amount: targets.length, run });
            },
            httpFloor: approve(httpFloor),
            nextFloor: approve(nextFloor),
          });
          const machines = await makeJoinBodies(joinsFor(connections));
          const join = { ...common, url: `${server.baseUrl}/api/compute/nodes/join`, bearer: JOIN_BEARER, amount: machines.length };
          await measure("join, deferred (202)", connections, {
            http: () => httpLoad({ ...join, expectStatus: [202], bodyFor: (i) => machines[i % machines.length]! }),
          });
          await approveAllJoins(client);
          await measure("join retry, consumed (200 + cert)", connections, {
            http: () => httpLoad({ ...join, expectStatus: [200], bodyFor: (i) => machines[i % machines.length]! }),
          });
        }
        if (size === Math.max(...sizes)) explain = await explainList(client, cursor);
      }
      if (phases.has("nodes"))
        nodePage = await measureNodePhase({
          client,
          baseUrl: server.baseUrl,
          endpoints: { app, httpFloor, nextFloor },
          rows,
          smoke: args.smoke!,
          seconds,
          connectionsList,
        });
      if (phases.has("rules")) {
        const rules = await rulesTestPhase(client, server.baseUrl, args.smoke!);
        rows.push(rules.row);
        printTable([rules.row], { header: false });
        rulesTest = rules.result;
      }
    } finally {
      await floorStarting.then((floor) => floor.stop()).catch(() => {});
      await server.stop();
    }
    if (phases.has("storm")) storm = await stormOnFreshServer(cluster.url, client, stormOptions(args.smoke!), processes, caKey);
  } finally {
    await client.end().catch(() => {});
    await cluster.stop();
  }
  const result = {
    at: new Date().toISOString(),
    machine: machineFacts(),
    appProcesses: processes,
    seconds,
    sizes,
    rows,
    pageWeight,
    nodePageWeight: nodePage,
    bootStorm: storm,
    rulesTest,
    metricsScrape,
    explainAtLargest: explain,
  };
  const out = args.out ?? path.join("bench", "results", `bench-${result.at.replace(/[:.]/g, "-")}.json`);
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log("\nSummary");
  printTable(rows, { header: true });
  for (const [name, weight] of [
    ["Queue page", pageWeight],
    ["Node page", nodePage],
  ] as const) {
    if (weight) console.log(`${name} first-load JavaScript: ${(weight.gzipBytes / 1000).toFixed(1)} kB gzipped (target ≤ 150 kB)`);
  }
  if (rulesTest) printRulesTest(rulesTest);
  if (metricsScrape.first) console.log(`\n${scrapeVerdict("GET /metrics right after start", metricsScrape.first)}`);
  for (const figures of metricsScrape.underLoad)
    console.log(
      scrapeVerdict(`GET /metrics under ${figures.connections} connections at ${figures.rows.toLocaleString("en")} rows`, figures),
    );
  if (storm) {
    console.log(`\nBoot storm (${storm.known} known + ${storm.unknown} unknown at ${storm.concurrency})`);
    printStorm(storm);
  }
  console.log(`\nJSON: ${out}`);
}

/**
 * Distinct machines for the join runs (each a real key pair and CSR, made
 * before the clock starts). A smoke run only shows the path works: a few
 * (the run stops early once they have joined), not hundreds of key pairs.
 */
function joinsFor(connections: number): number {
  if (args.smoke) return 10 * connections;
  return Math.min(5_000, Math.max(100, Math.round(seconds * (connections === 1 ? 150 : 400))));
}

/** Enough distinct pending requests for the run at ~3,000/s, at most (a smoke run: a few, as for the joins). */
function approvalsFor(connections: number): number {
  if (args.smoke) return 50 * connections;
  return Math.min(50_000, Math.max(200, Math.round(seconds * (connections === 1 ? 800 : 3000))));
}

function machineFacts() {
  return { node: process.version, cpus: availableParallelism(), platform: process.platform };
}

main().catch((error: unknown) => {
  console.error(`bench failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
