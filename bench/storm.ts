// npm run bench:storm — the boot storm alone (issue 16), on a fresh cluster
// and the current build: --known 5000 --unknown 500 --concurrency 64
// (--smoke: 40 + 8 at 16, its speed not judged). `npm run bench` runs it too, after the rest.
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import pg from "pg";
import { startPostgresCluster } from "../test/harness/postgres-cluster";
import { runNpmScript } from "../test/harness/run-npm-script";
import { gatingVerdicts, stormOnFreshServer, stormOptions } from "./boot-storm";
import { createBenchWorld } from "./workload/dataset";

const { values: args } = parseArgs({
  options: {
    known: { type: "string", default: "5000" },
    unknown: { type: "string", default: "500" },
    concurrency: { type: "string", default: "64" },
    processes: { type: "string", default: String(availableParallelism()) },
    smoke: { type: "boolean", default: false },
  },
});

async function main() {
  const cluster = await startPostgresCluster({ durable: true, log: (line) => console.log(`[postgres] ${line}`) });
  const client = new pg.Client({ connectionString: cluster.url });
  try {
    await runNpmScript("db:migrate", { DATABASE_URL: cluster.url, NEXT_TELEMETRY_DISABLED: "1" });
    await client.connect();
    await createBenchWorld(client);
    const result = await stormOnFreshServer(cluster.url, client, stormOptions(args.smoke!, args), Number(args.processes));
    if (gatingVerdicts(result).some((verdict) => !verdict.held)) process.exitCode = 1;
  } finally {
    await client.end().catch(() => {});
    await cluster.stop();
  }
}

main().catch((error: unknown) => {
  console.error(`storm failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
