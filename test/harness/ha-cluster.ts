import { execFile, execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "pg";
import { findPostgresBinaries } from "./postgres-cluster";
import { freePort } from "./start-app-server";
import { DATABASE, etcdArgs, haproxyConfig, MEMBERS, patroniConfig, type HaPorts, type MemberName } from "./ha-config";
import { asPostgresUser, killPostmaster, postmasterPid, signalGroup, spawnDetached, stopGroup, waitFor } from "./ha-processes";

const execFileAsync = promisify(execFile);

/** What a cluster's state file records: enough for another process (`ha:down`, a test) to find it again. */
export interface HaState {
  dir: string;
  ports: HaPorts;
  binDir: string;
  pids: { etcd: number; haproxy: number } & Record<MemberName, number>;
  /** through HAProxy's leader port */
  url: string;
  /** through HAProxy's replica port */
  replicaUrl: string;
}

export interface MemberStatus {
  name: MemberName;
  /** Patroni's words: leader, sync_standby, replica */
  role: string;
  /** running, streaming, stopped, starting, … */
  state: string;
  timeline?: number;
}

const STATE_FILE = "state.json";
const memberDir = (dir: string, name: MemberName) => join(dir, name);
const configFile = (dir: string, name: MemberName) => join(memberDir(dir, name), "patroni.yml");

function postgresOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  return { uid: Number(execFileSync("id", ["-u", "postgres"])), gid: Number(execFileSync("id", ["-g", "postgres"])) };
}

export class HaCluster {
  constructor(readonly state: HaState) {}

  get url(): string {
    return this.state.url;
  }

  /** The members as Patroni sees them (any member's REST API answers for the cluster). */
  async members(): Promise<MemberStatus[]> {
    let last: unknown;
    for (const name of MEMBERS) {
      try {
        const response = await fetch(`http://127.0.0.1:${this.state.ports.rest[name]}/cluster`, { signal: AbortSignal.timeout(2_000) });
        return ((await response.json()) as { members: MemberStatus[] }).members;
      } catch (error) {
        last = error;
      }
    }
    throw last;
  }

  async leader(): Promise<MemberName | undefined> {
    return (await this.members()).find((member) => member.role === "leader" && member.state === "running")?.name;
  }

  /** Resolves once there is a running leader and a streaming sync standby (what synchronous_mode needs). */
  async waitUntilHealthy(timeoutMs = 90_000): Promise<{ leader: MemberName; standby: MemberName }> {
    return waitFor(
      "a leader and a sync standby",
      async () => {
        const members = await this.members();
        const leader = members.find((member) => member.role === "leader" && member.state === "running");
        const standby = members.find((member) => member.role === "sync_standby" && /running|streaming/.test(member.state));
        return leader && standby ? { leader: leader.name, standby: standby.name } : undefined;
      },
      timeoutMs,
    );
  }

  /**
   * The loss of a database server: SIGKILL for the member's Patroni and its
   * PostgreSQL (every backend with it), nothing gets to clean up or hand over.
   */
  killMember(name: MemberName): void {
    const postmaster = postmasterPid(join(memberDir(this.state.dir, name), "data"));
    signalGroup(this.state.pids[name], "SIGKILL");
    if (postmaster) killPostmaster(postmaster);
  }

  /** Starts a member's Patroni again (after killMember): it rejoins, rewound, as a replica. */
  startMember(name: MemberName): void {
    const [file, args] = asPostgresUser("patroni", [configFile(this.state.dir, name)]);
    this.state.pids[name] = spawnDetached(file, args, join(memberDir(this.state.dir, name), "patroni.log"), this.state.dir);
    writeFileSync(join(this.state.dir, STATE_FILE), JSON.stringify(this.state, null, 2));
  }

  /** A planned switchover through Patroni's REST API (what `patronictl switchover` calls). */
  async switchover(leader: MemberName, candidate: MemberName): Promise<void> {
    const response = await fetch(`http://127.0.0.1:${this.state.ports.rest[leader]}/switchover`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ leader, candidate }),
    });
    if (response.status !== 200) throw new Error(`switchover: ${response.status} ${await response.text()}`);
  }

  /** `patronictl list`, as an operator would read it. */
  async patronictlList(): Promise<string> {
    const [file, args] = asPostgresUser("patronictl", ["-c", configFile(this.state.dir, "pg1"), "list"]);
    return (await execFileAsync(file, args, { cwd: this.state.dir })).stdout;
  }

  /** Stops everything and deletes the state directory. Safe to call twice. */
  async stop(): Promise<void> {
    if (!existsSync(this.state.dir)) return;
    await stopGroup(this.state.pids.haproxy, 2_000);
    await Promise.all(MEMBERS.map((name) => stopGroup(this.state.pids[name])));
    for (const name of MEMBERS) {
      const postmaster = postmasterPid(join(memberDir(this.state.dir, name), "data"));
      if (postmaster) killPostmaster(postmaster);
    }
    await stopGroup(this.state.pids.etcd, 5_000);
    rmSync(this.state.dir, { recursive: true, force: true });
  }
}

/** The cluster whose state is in `dir` (started by another process), or undefined. */
export function openHaCluster(dir: string): HaCluster | undefined {
  const file = join(dir, STATE_FILE);
  if (!existsSync(file)) return undefined;
  return new HaCluster(JSON.parse(readFileSync(file, "utf8")) as HaState);
}

async function allocatePorts(): Promise<HaPorts> {
  const port = () => freePort();
  return {
    etcdClient: await port(),
    etcdPeer: await port(),
    leader: await port(),
    replicas: await port(),
    postgres: { pg1: await port(), pg2: await port() },
    rest: { pg1: await port(), pg2: await port() },
  };
}

/**
 * Starts etcd, two Patroni members (the first bootstraps, the second copies
 * it with pg_basebackup) and HAProxy in `dir` (created; must not hold a
 * cluster already), waits for a leader and a sync standby, creates the
 * application database and returns the cluster.
 */
export async function startHaCluster(dir: string, log: (line: string) => void = () => {}): Promise<HaCluster> {
  if (openHaCluster(dir)) throw new Error(`${dir} holds a running HA cluster already (npm run ha:down stops it)`);
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755); // the postgres user walks into its member directories
  const { binDir } = await findPostgresBinaries();
  const ports = await allocatePorts();
  const owner = postgresOwner();
  const state: HaState = {
    dir,
    ports,
    binDir,
    pids: { etcd: 0, haproxy: 0, pg1: 0, pg2: 0 },
    url: `postgresql://postgres@127.0.0.1:${ports.leader}/${DATABASE}`,
    replicaUrl: `postgresql://postgres@127.0.0.1:${ports.replicas}/${DATABASE}`,
  };
  const cluster = new HaCluster(state);
  try {
    log(`etcd on 127.0.0.1:${ports.etcdClient}`);
    state.pids.etcd = spawnDetached("etcd", etcdArgs(ports, join(dir, "etcd")), join(dir, "etcd.log"), dir);
    writeFileSync(join(dir, STATE_FILE), JSON.stringify(state, null, 2));
    await waitFor("etcd", async () => ((await fetch(`http://127.0.0.1:${ports.etcdClient}/health`)).ok ? true : undefined), 30_000);

    for (const name of MEMBERS) {
      mkdirSync(memberDir(dir, name), { mode: 0o700 });
      writeFileSync(configFile(dir, name), patroniConfig({ name, ports, memberDir: memberDir(dir, name), binDir }));
      if (owner) {
        chownSync(memberDir(dir, name), owner.uid, owner.gid);
        chownSync(configFile(dir, name), owner.uid, owner.gid);
      }
      log(`patroni ${name}: postgres on 127.0.0.1:${ports.postgres[name]}, REST on 127.0.0.1:${ports.rest[name]}`);
      cluster.startMember(name);
      // the first member bootstraps alone, so the second never races it for the initialize key
      if (name === "pg1") await waitFor("pg1 bootstrapped", async () => ((await cluster.leader()) ? true : undefined), 60_000);
    }
    writeFileSync(join(dir, "haproxy.cfg"), haproxyConfig(ports));
    log(`haproxy: leader port 127.0.0.1:${ports.leader}, replica port 127.0.0.1:${ports.replicas}`);
    state.pids.haproxy = spawnDetached("haproxy", ["-db", "-f", join(dir, "haproxy.cfg")], join(dir, "haproxy.log"), dir);
    writeFileSync(join(dir, STATE_FILE), JSON.stringify(state, null, 2));

    await cluster.waitUntilHealthy();
    await waitFor("the leader port", () => createDatabase(`postgresql://postgres@127.0.0.1:${ports.leader}/postgres`), 30_000, 500);
    return cluster;
  } catch (error) {
    await cluster.stop().catch(() => {});
    throw error;
  }
}

async function createDatabase(adminUrl: string): Promise<true> {
  const client = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 2_000 });
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
    return true;
  } finally {
    await client.end();
  }
}
