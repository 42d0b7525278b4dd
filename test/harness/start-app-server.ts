import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export interface AppServer {
  baseUrl: string;
  /** the process started (with `processes`, the primary that forks the app processes) */
  pid: number;
  logFile: string;
  stop(): Promise<void>;
}

/**
 * Starts the production build (`next start`) on a free loopback port against
 * `databaseUrl` and waits until it answers. Its output goes to `logFile`.
 */
export async function startAppServer(options: {
  databaseUrl: string;
  logFile: string;
  env?: Record<string, string>;
  /** a free one when not given */
  port?: number;
  /** flags for node itself (e.g. --cpu-prof, which NODE_OPTIONS refuses) */
  nodeArgs?: string[];
  /** app processes sharing the port, as `npm start` runs them (default: one plain `next start`) */
  processes?: number;
}): Promise<AppServer> {
  const distDir = process.env.BC_NEXT_DIST_DIR || ".next";
  if (!existsSync(path.join(process.cwd(), distDir, "BUILD_ID"))) {
    throw new Error(`no production build in ${distDir}: run \`npm run build\` first (\`npm test\` does)`);
  }
  const port = options.port ?? (await freePort());
  mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = createWriteStream(options.logFile, { flags: "a" });
  const entry = options.processes ? ["scripts/serve.mjs"] : ["node_modules/next/dist/bin/next", "start"];
  const processes: Record<string, string> = options.processes ? { BC_WEB_CONCURRENCY: String(options.processes) } : {};
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...entry, "-p", String(port), "-H", "127.0.0.1"], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", DATABASE_URL: options.databaseUrl, ...processes, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // both streams feed one file: neither may end it while the other still writes
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  child.once("exit", () => log.end());
  const baseUrl = `http://127.0.0.1:${port}`;
  const forgetChild = killChildWithParent(child);
  await waitUntilAnswering(baseUrl, child);
  return {
    baseUrl,
    pid: child.pid!,
    logFile: options.logFile,
    stop: () => stopChild(child).finally(forgetChild),
  };
}

/**
 * A server left behind by a killed test run or benchmark keeps a core busy
 * for good (seen: 20 minutes at 80% CPU retrying a stopped database). Kill it
 * when this process exits or is interrupted. Returns the undo.
 */
export function killChildWithParent(child: ChildProcess): () => void {
  const kill = () => {
    if (child.exitCode === null) child.kill("SIGKILL");
  };
  const onSignal = (signal: NodeJS.Signals) => {
    kill();
    // Listening cancels Node's default of dying; let other handlers run, then exit.
    setImmediate(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.on("exit", kill);
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return () => {
    process.off("exit", kill);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  };
}

async function waitUntilAnswering(baseUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with code ${child.exitCode}`);
    try {
      await fetch(`${baseUrl}/api/health`); // any answer: the server is up
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  await stopChild(child);
  throw new Error(`next start did not answer at ${baseUrl} within 60 s`);
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(); // exited, or killed by a signal
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
  });
}
