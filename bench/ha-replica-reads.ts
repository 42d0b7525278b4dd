// Issue 37: is it worth reading from the replica? The app's own list
// statement (pending page of 100) through HAProxy's leader port and its
// replica port, at the bench's sizes, one connection, sequential calls; and
// how far behind the replica is right after a write (what read-your-writes
// would have to wait for). Needs a running `npm run ha:up` cluster, migrated:
//   npx tsx --conditions=react-server bench/ha-replica-reads.ts
import pg from "pg";
import { openHaCluster } from "@/test/harness/ha-cluster";
import { haStateDir } from "@/scripts/ha/state-dir";
import { addMixedRequests, createBenchWorld, tableSize } from "./workload/dataset";
import { floorList } from "./workload/scenarios";

const SIZES = [1_000, 100_000];
const CALLS = 400;

async function p50p99(url: string): Promise<{ p50: number; p99: number }> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const client = await pool.connect();
  try {
    for (let i = 0; i < 50; i++) await floorList(client, "pending"); // warm the cache and the plan
    const times: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const start = performance.now();
      await floorList(client, "pending");
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    return { p50: times[Math.floor(CALLS / 2)]!, p99: times[Math.floor(CALLS * 0.99)]! };
  } finally {
    client.release();
    await pool.end();
  }
}

/** Milliseconds from a committed write on the leader until the replica has replayed it. */
async function replayLagMs(leaderUrl: string, replicaUrl: string): Promise<number> {
  const leader = new pg.Client({ connectionString: leaderUrl });
  const replica = new pg.Client({ connectionString: replicaUrl });
  await Promise.all([leader.connect(), replica.connect()]);
  try {
    await leader.query("CREATE TABLE IF NOT EXISTS ha_lag_probe (at timestamptz)");
    const samples: number[] = [];
    for (let i = 0; i < 20; i++) {
      const lsn = (await leader.query("INSERT INTO ha_lag_probe VALUES (now()) RETURNING pg_current_wal_lsn()::text AS lsn")).rows[0].lsn;
      const start = performance.now();
      while (!(await replica.query("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done", [lsn])).rows[0].done);
      samples.push(performance.now() - start);
    }
    await leader.query("DROP TABLE ha_lag_probe");
    return samples.sort((a, b) => a - b)[10]!;
  } finally {
    await Promise.all([leader.end(), replica.end()]);
  }
}

const cluster = openHaCluster(haStateDir());
if (!cluster) throw new Error("no cluster: npm run ha:up first");
const admin = new pg.Client({ connectionString: cluster.url });
await admin.connect();
await createBenchWorld(admin);
for (const size of SIZES) {
  await addMixedRequests(admin, size - (await tableSize(admin)));
  await admin.query("ANALYZE join_requests");
  await new Promise((resolve) => setTimeout(resolve, 1_000)); // the replica replays the load
  const leader = await p50p99(cluster.url);
  const replica = await p50p99(cluster.state.replicaUrl);
  const ms = (value: number) => value.toFixed(2);
  console.log(
    `${size} rows: list pending p50/p99 leader ${ms(leader.p50)}/${ms(leader.p99)} ms, replica ${ms(replica.p50)}/${ms(replica.p99)} ms`,
  );
}
console.log(`replica replay after a commit (median of 20): ${(await replayLagMs(cluster.url, cluster.state.replicaUrl)).toFixed(2)} ms`);
await admin.end();
