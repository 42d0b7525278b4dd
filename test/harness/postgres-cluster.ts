/**
 * A throwaway PostgreSQL cluster built from the system's server binaries, for the test
 * harness and the benchmark: fresh data directory, free port, durability switched off
 * (the data is thrown away anyway), removed again on stop().
 *
 * CLI: `npm run pg:scratch` starts one, prints DATABASE_URL=... and stops it on Ctrl-C.
 */
import { execFile, execFileSync } from "node:child_process";
import { constants as fsConstants, realpathSync, rmSync } from "node:fs";
import { access, chown, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client, escapeIdentifier } from "pg";

const execFileAsync = promisify(execFile);

const DEBIAN_BIN_ROOT = "/usr/lib/postgresql";
const REQUIRED_BINARIES = ["initdb", "pg_ctl", "postgres"] as const;
const TEST_DATABASE = "bc_test";
const LOG_FILE = "server.log";

export interface PostgresCluster {
  /** URL of the fresh `bc_test` database. */
  url: string;
  /** URL of the `postgres` maintenance database, as the superuser. */
  adminUrl: string;
  dataDir: string;
  /** Creates another empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /**
   * Stops the server the way an operator's restart does (`pg_ctl stop -m fast`: open
   * sessions are terminated, in-flight transactions rolled back), stays down for
   * `downMs`, then starts it again on the same port with the same data. For fault tests.
   */
  restart(options?: { downMs?: number }): Promise<void>;
  /** Stops the server and deletes the data directory. Safe to call twice. */
  stop(): Promise<void>;
}

export interface StartOptions {
  port?: number;
  log?: (line: string) => void;
  /**
   * Keep PostgreSQL's durability settings (fsync, synchronous commit) and give
   * it production-like memory: for benchmarks, whose write figures would
   * otherwise flatter us. Tests leave it off.
   */
  durable?: boolean;
}

// ---------------------------------------------------------------------------------------
// Finding the binaries

export interface PostgresBinaries {
  binDir: string;
  initdb: string;
  pgCtl: string;
}

/** The file-system and process look-ups binary discovery needs; swappable in tests. */
export interface BinaryProbe {
  isExecutable(path: string): Promise<boolean>;
  /** Entry names of a directory; [] when it does not exist. */
  listDir(dir: string): Promise<string[]>;
  /** Output of `pg_config --bindir`; undefined when pg_config is missing or fails. */
  pgConfigBindir(): Promise<string | undefined>;
}

export const systemProbe: BinaryProbe = {
  async isExecutable(path) {
    try {
      await access(path, fsConstants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  async listDir(dir) {
    try {
      return await readdir(dir);
    } catch {
      return [];
    }
  },
  async pgConfigBindir() {
    try {
      const { stdout } = await execFileAsync("pg_config", ["--bindir"]);
      return stdout.trim() || undefined;
    } catch {
      return undefined;
    }
  },
};

export const BINARIES_NOT_FOUND_HINT =
  "The PostgreSQL server binaries (initdb, pg_ctl, postgres) were not found. " +
  "Install the Debian package `postgresql` (apt-get install -y postgresql) " +
  "or set PG_BIN to the directory that holds them.";

/**
 * Where initdb / pg_ctl / postgres live: $PG_BIN if set (and then only there: an explicit
 * choice that is wrong should fail, not be silently replaced), else `pg_config --bindir`
 * (libpq-dev ships pg_config without the server, hence the check), else the newest
 * Debian-style /usr/lib/postgresql/<version>/bin.
 */
export async function findPostgresBinaries(
  env: Record<string, string | undefined> = process.env,
  probe: BinaryProbe = systemProbe,
): Promise<PostgresBinaries> {
  const hasServer = async (dir: string) =>
    (await Promise.all(REQUIRED_BINARIES.map((name) => probe.isExecutable(join(dir, name))))).every(Boolean);
  const found = (binDir: string): PostgresBinaries => ({
    binDir,
    initdb: join(binDir, "initdb"),
    pgCtl: join(binDir, "pg_ctl"),
  });

  const pgBin = env.PG_BIN;
  if (pgBin) {
    if (await hasServer(pgBin)) return found(pgBin);
    throw new Error(`${BINARIES_NOT_FOUND_HINT} (PG_BIN=${pgBin} does not contain them.)`);
  }

  const looked: string[] = [];
  const pgConfigDir = await probe.pgConfigBindir();
  if (pgConfigDir) {
    if (await hasServer(pgConfigDir)) return found(pgConfigDir);
    looked.push(`${pgConfigDir} (from pg_config --bindir)`);
  }

  const versions = (await probe.listDir(DEBIAN_BIN_ROOT)).sort((a, b) => b.localeCompare(a, "en", { numeric: true }));
  for (const version of versions) {
    const dir = join(DEBIAN_BIN_ROOT, version, "bin");
    if (await hasServer(dir)) return found(dir);
  }
  looked.push(`${DEBIAN_BIN_ROOT}/*/bin`);
  throw new Error(`${BINARIES_NOT_FOUND_HINT} (Looked in: ${looked.join(", ")}.)`);
}

// ---------------------------------------------------------------------------------------
// Running the server

/**
 * PostgreSQL refuses to run as root, so as root every server command goes through
 * `runuser -u postgres --`. Returns [file, args] for execFile / execFileSync.
 */
function asServerUser(file: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, args];
}

/** pg_ctl hands -o to a shell, so each value inside it must be shell-quoted. */
function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error("the OS gave no free port"))));
    });
  });
}

async function chownToPostgresUser(dir: string): Promise<void> {
  let uid: number;
  let gid: number;
  try {
    uid = Number((await execFileAsync("id", ["-u", "postgres"])).stdout.trim());
    gid = Number((await execFileAsync("id", ["-g", "postgres"])).stdout.trim());
  } catch {
    throw new Error(
      "Running as root, but there is no `postgres` user to run the server as " + "(the Debian package `postgresql` creates it).",
    );
  }
  await chown(dir, uid, gid);
}

async function logTail(dataDir: string, lines = 30): Promise<string> {
  try {
    return (await readFile(join(dataDir, LOG_FILE), "utf8")).split("\n").slice(-lines).join("\n");
  } catch {
    return "(no server log)";
  }
}

async function createDatabaseOn(adminUrl: string, name: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------
// Best-effort cleanup when the process dies without calling stop()

interface RunningCluster {
  /** "stopping": stop() is under way; "stopped": server gone, data directory removed. */
  state: "running" | "stopping" | "stopped";
  stopSync(): void;
}

const running = new Set<RunningCluster>();
const EXIT_SIGNALS = ["SIGINT", "SIGTERM"] as const;

/** Only synchronous work runs in an 'exit' handler, hence execFileSync / rmSync here. */
function stopAllSync(): void {
  for (const cluster of running) {
    // A cluster whose stop() is already under way is left to finish it.
    if (cluster.state === "running") cluster.stopSync();
  }
  running.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  stopAllSync();
  // Listening for a signal cancels Node's default of dying from it. If nobody else handles
  // it, restore that default: stop listening and re-raise.
  if (process.listenerCount(signal) === 1) {
    uninstallExitHooks();
    process.kill(process.pid, signal);
  }
}

let hooksInstalled = false;

function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on("exit", stopAllSync);
  for (const signal of EXIT_SIGNALS) process.on(signal, onSignal);
}

/** Removed again when no cluster runs, so the host process's signal handling is its own. */
function uninstallExitHooks(): void {
  hooksInstalled = false;
  process.off("exit", stopAllSync);
  for (const signal of EXIT_SIGNALS) process.off(signal, onSignal);
}

// ---------------------------------------------------------------------------------------

export async function startPostgresCluster(options: StartOptions = {}): Promise<PostgresCluster> {
  const log = options.log ?? (() => {});
  const bin = await findPostgresBinaries();
  const port = options.port ?? (await freePort());
  const dataDir = await mkdtemp(join(tmpdir(), "bc-pg-"));
  const runAsServerUser = (file: string, args: string[]) =>
    // cwd: the server user may not be allowed into the caller's working directory.
    execFileAsync(...asServerUser(file, args), { cwd: dataDir });

  const removeDataDir = () => rm(dataDir, { recursive: true, force: true });
  const pgCtlStop = ["-D", dataDir, "-m", "fast", "-w", "stop"];
  const cluster: RunningCluster = {
    state: "running",
    stopSync() {
      cluster.state = "stopped";
      try {
        execFileSync(...asServerUser(bin.pgCtl, pgCtlStop), { cwd: dataDir, stdio: "ignore" });
      } catch {
        // best effort: it may not have been running
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };

  const forget = () => {
    running.delete(cluster);
    if (running.size === 0) uninstallExitHooks();
  };
  // Registered before anything runs, so an interrupt during start-up cleans up too.
  running.add(cluster);
  installExitHooks();

  try {
    if (process.getuid?.() === 0) await chownToPostgresUser(dataDir);

    log(`initdb ${dataDir} (binaries in ${bin.binDir})`);
    // --locale=C: the same collation on every machine, whatever LANG says.
    await runAsServerUser(bin.initdb, ["-D", dataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);

    const serverOptions = [
      `-p ${port}`,
      `-k ${shellQuote(dataDir)}`,
      "-c listen_addresses=127.0.0.1",
      // Throwaway data: durability only costs time.
      ...(options.durable
        ? ["-c shared_buffers=1GB", "-c effective_cache_size=4GB", "-c work_mem=16MB"]
        : ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]),
      // Parallel test workers each hold a pool.
      "-c max_connections=300",
    ].join(" ");
    const pgCtlStart = async () => {
      log(`pg_ctl start on 127.0.0.1:${port}`);
      try {
        await runAsServerUser(bin.pgCtl, ["-D", dataDir, "-l", join(dataDir, LOG_FILE), "-o", serverOptions, "-t", "60", "-w", "start"]);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(`PostgreSQL did not start: ${message}\n--- ${LOG_FILE} ---\n${await logTail(dataDir)}`);
      }
    };
    await pgCtlStart();

    const base = `postgresql://postgres@127.0.0.1:${port}`;
    const adminUrl = `${base}/postgres`;
    await createDatabaseOn(adminUrl, TEST_DATABASE);
    log(`ready: ${base}/${TEST_DATABASE}`);

    let stopped: Promise<void> | undefined;
    return {
      url: `${base}/${TEST_DATABASE}`,
      adminUrl,
      dataDir,
      async createDatabase(name) {
        await createDatabaseOn(adminUrl, name);
        return `${base}/${encodeURIComponent(name)}`;
      },
      async restart({ downMs = 0 } = {}) {
        if (cluster.state !== "running") throw new Error("restart() after stop()");
        log(`pg_ctl stop -m fast (restart, down for ${downMs} ms)`);
        await runAsServerUser(bin.pgCtl, pgCtlStop);
        await new Promise((resolve) => setTimeout(resolve, downMs));
        await pgCtlStart();
      },
      stop() {
        stopped ??= (async () => {
          if (cluster.state === "stopped") return; // already done by the exit hooks
          cluster.state = "stopping";
          log(`pg_ctl stop ${dataDir}`);
          try {
            await runAsServerUser(bin.pgCtl, pgCtlStop);
          } finally {
            await removeDataDir();
            cluster.state = "stopped";
            forget();
          }
        })();
        return stopped;
      },
    };
  } catch (error) {
    cluster.stopSync();
    forget();
    throw error;
  }
}

// ---------------------------------------------------------------------------------------
// CLI: a scratch PostgreSQL for developers

function isMainModule(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  // eslint-disable-next-line prefer-const -- assigned once, below, but read by the signal handler registered before it
  let cluster: PostgresCluster | undefined;
  let stopping = false;
  // Listening before the start makes this handler run before the module's exit hooks, and
  // it calls stop() at once, so the cluster gets the ordinary stop(), not the emergency one.
  // `on`, not `once`: while this listener exists the exit hooks do not re-raise the signal
  // and kill the process in the middle of stop().
  const stopped = new Promise<void>((resolve, reject) => {
    for (const signal of EXIT_SIGNALS) {
      process.on(signal, () => {
        // Interrupted while starting: exiting runs the exit hook, which cleans up.
        if (!cluster) process.exit(130);
        if (stopping) return; // tsx relays Ctrl-C, so the signal often comes twice
        stopping = true;
        console.error(`${signal}: stopping`);
        cluster.stop().then(resolve, reject);
      });
    }
  });
  cluster = await startPostgresCluster({ log: (line) => console.error(line) });
  console.log(`DATABASE_URL=${cluster.url}`);
  console.error("Running; press Ctrl-C to stop and delete it.");
  // Signal listeners do not keep Node alive; without this it would exit right here.
  const keepAlive = setInterval(() => {}, 1 << 30);
  await stopped;
  clearInterval(keepAlive);
  process.exit(0);
}

if (isMainModule()) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
