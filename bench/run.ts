// npm run bench — how the queue's cost grows with the table, and how far the
// full stack is from two floors: the same SQL through `pg` on the same PostgreSQL,
// and a bare node:http server answering the same bytes with it (bench/http-floor);
// then the node phase: inventory/report (unchanged, changed) at 10,000 nodes and nodes/list;
// then approvalRules/test over 10,000 requests (issue 35: within 2 s).
// Options: --sizes 1000,100000,1000000  --seconds 10  --connections 1,32
//          --processes N (app processes, as `npm start` runs them; default: one per core)
//          --smoke (tiny: 1k rows, 1 s, connections 1,4, a few joins and approvals)  --skip-build  --out FILE
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { startPostgresCluster } from "../test/harness/postgres-cluster";
import { runNpmScript } from "../test/harness/run-npm-script";
import { startAppServer } from "../test/harness/start-app-server";
import { addMixedRequests, approvalTargets, BENCH_BEARER, createBenchWorld, deepCursor, HOT, tableSize } from "./workload/dataset";
import { httpLoad } from "./http-load";
import { floorLoad } from "./floor-load";
import { approveBody, floorApprove, floorList, listBody } from "./workload/scenarios";
import { explainList } from "./explain";
import { checkSameAnswers, publishedAt, type Endpoint } from "./http-floor/check-same-answers";
import { startHttpFloor } from "./http-floor/start-http-floor";
import { approveAllJoins, createJoinPool, JOIN_BEARER, makeJoinBodies } from "./join-scenario";
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { createBenchUser, nodePageWeight, queuePageWeight, type PageWeight } from "./page-weight";
import { printStorm, stormOnFreshServer, stormOptions, type StormResult } from "./boot-storm";
import { printTable, type Row } from "./report";
import { createBenchNodes, listNodesBody, NODE_COUNT, NODE_POOL, reportBody, tokensFor } from "./node-scenario";
import { printRulesTest, rulesTestPhase, type RulesTestResult } from "./rules-test-scenario";
import { firstScrape, scrapeDuring, scrapeVerdict, type ScrapeFigures } from "./metrics-scrape";

const { values: args } = parseArgs({
  options: {
    sizes: { type: "string", default: "1000,100000,1000000" },
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "1,32" },
    smoke: { type: "boolean", default: false },
    processes: { type: "string", default: String(availableParallelism()) },
    "skip-build": { type: "boolean", default: false },
    out: { type: "string" },
  },
});
const sizes = (args.smoke ? "1000" : args.sizes!).split(",").map(Number);
const seconds = args.smoke ? 1 : Number(args.seconds);
const connectionsList = (args.smoke ? "1,4" : args.connections!).split(",").map(Number);
const processes = Number(args.processes);
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
  const metricsScrape: { first?: ScrapeFigures; underLoad: (ScrapeFigures & { rows: number; connections: number })[] } = { underLoad: [] };
  try {
    await runNpmScript("db:migrate", env);
    if (!args["skip-build"]) await runNpmScript("build", env);
    await client.connect();
    await createBenchWorld(client);
    await createJoinPool(client);
    await createBenchUser(client, HOT.tenantId);
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
        BC_BENCH_FLOOR_TOKEN: benchFloorToken,
      },
    });
    const app = publishedAt("the app", server.baseUrl);
    const nextFloor: Endpoint = {
      name: "Next.js floor",
      url: (method) => `${server.baseUrl}/api/compute/bench-floor/joinRequests.${method}`,
      headers: { "x-bench-floor": benchFloorToken },
    };
    // as a Prometheus server scrapes an app that just started (its other processes still starting)
    metricsScrape.first = await firstScrape(server.baseUrl, metricsToken);
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
      for (const size of sizes) {
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
        const measure = async (
          scenario: string,
          connections: number,
          runs: {
            http: () => Promise<Row["http"]>;
            floor?: () => Promise<Row["floor"]>;
            httpFloor?: () => Promise<Row["httpFloor"]>;
            nextFloor?: () => Promise<Row["nextFloor"]>;
          },
        ) => {
          const row: Row = { size, rows: loaded, scenario, connections, http: await runs.http() };
          if (runs.floor) row.floor = await runs.floor();
          if (runs.httpFloor) row.httpFloor = await runs.httpFloor();
          if (runs.nextFloor) row.nextFloor = await runs.nextFloor();
          rows.push(row);
          printTable([row], { header: false });
        };
        // Warm every app process and HTTP floor process (JIT, connection pools)
        // before measuring: each holds its own, and a cold one skews the first run it serves.
        for (const at of [app, httpFloor, nextFloor]) {
          await httpLoad({
            url: at.url("list"),
            bearer: BENCH_BEARER,
            headers: at.headers,
            connections: Math.max(...connectionsList, processes),
            seconds: args.smoke ? 1 : 3,
            bodyFor: () => listBody("pending"),
          });
        }
        for (const connections of connectionsList) {
          const common = { bearer: BENCH_BEARER, connections, seconds };
          const list = (at: Endpoint, state: "pending" | "all", from?: string) => () =>
            httpLoad({ ...common, url: at.url("list"), headers: at.headers, bodyFor: () => listBody(state, from) });
          await measure("list pending (page 100)", connections, {
            // at the most connections, scraped as Prometheus would scrape it meanwhile
            http:
              connections === poolMax
                ? async () => {
                    const { result, scrapes } = await scrapeDuring(server.baseUrl, metricsToken, list(app, "pending")());
                    metricsScrape.underLoad.push({ rows: loaded, connections, ...scrapes });
                    console.log(scrapeVerdict(`GET /metrics under ${connections} connections`, scrapes));
                    return result;
                  }
                : list(app, "pending"),
            floor: () => floorLoad({ databaseUrl: cluster.url, concurrency: connections, seconds, run: (c) => floorList(c, "pending") }),
            httpFloor: list(httpFloor, "pending"),
            nextFloor: list(nextFloor, "pending"),
          });
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
              url: at.url("approve"),
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
      nodePage = await measureNodePhase(client, server.baseUrl, rows);
      const rules = await rulesTestPhase(client, server.baseUrl, args.smoke!);
      rows.push(rules.row);
      printTable([rules.row], { header: false });
      rulesTest = rules.result;
    } finally {
      await floorStarting.then((floor) => floor.stop()).catch(() => {});
      await server.stop();
    }
    storm = await stormOnFreshServer(cluster.url, client, stormOptions(args.smoke!), processes, caKey);
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
 * SPEC D1–D3 at fleet size: the daemon's frequent (mostly unchanged) reports,
 * changed ones, and a pool's node list; then a node page's weight, its node
 * having a history by then.
 */
async function measureNodePhase(client: pg.Client, baseUrl: string, rows: Row[]): Promise<PageWeight> {
  const count = args.smoke ? 1_000 : NODE_COUNT;
  const nodes = await createBenchNodes(client, count);
  console.log(`\n▶ ${count.toLocaleString("en")} nodes in pool ${NODE_POOL}, each with a first snapshot`);
  const measure = async (scenario: string, connections: number, http: () => Promise<Row["http"]>) => {
    const row: Row = { size: count, rows: count, scenario, connections, http: await http() };
    rows.push(row);
    printTable([row], { header: false });
  };
  const report = { url: `${baseUrl}/api/compute/inventory/report`, bearer: "", seconds };
  let seq = 0;
  for (const connections of connectionsList) {
    nodes.tokens = await tokensFor(nodes.ids, nodes.privateKeyPem); // fresh for this round (a JWT lives ≤ 300 s)
    await measure(`inventory/report unchanged (${count / 1000}k nodes)`, connections, () =>
      httpLoad({ ...report, connections, bearerFor: (i) => nodes.tokens[i % count]!, bodyFor: () => reportBody(nodes) }),
    );
    await measure(`inventory/report changed (${count / 1000}k nodes)`, connections, () =>
      httpLoad({ ...report, connections, bearerFor: (i) => nodes.tokens[i % count]!, bodyFor: () => reportBody(nodes, seq++) }),
    );
    await measure(`nodes/list (page 100 of ${count / 1000}k)`, connections, () =>
      httpLoad({ url: `${baseUrl}/api/compute/nodes/list`, bearer: BENCH_BEARER, connections, seconds, bodyFor: () => listNodesBody() }),
    );
  }
  const weight = await nodePageWeight(baseUrl, NODE_POOL, nodes.ids[0]!);
  console.log(
    `Node page ${weight.path}: ${weight.scripts} scripts, ${(weight.gzipBytes / 1000).toFixed(1)} kB gzipped (${(weight.rawBytes / 1000).toFixed(1)} kB raw)`,
  );
  return weight;
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
