import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { freePort, killChildWithParent, stopChild } from "../../test/harness/start-app-server";

export interface HttpFloor {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts the HTTP floor (server.ts) as a child process on a free loopback
 * port, with `processes` processes and a pg pool of `poolMax` each, and waits
 * until every process listens. Its output goes to `logFile`.
 */
export async function startHttpFloor(options: {
  databaseUrl: string;
  processes: number;
  poolMax: number;
  logFile: string;
}): Promise<HttpFloor> {
  const port = await freePort();
  mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = createWriteStream(options.logFile, { flags: "a" });
  const entry = path.join(import.meta.dirname, "server.ts");
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", entry], {
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      PORT: String(port),
      HTTP_FLOOR_PROCESSES: String(options.processes),
      BC_DB_POOL_MAX: String(options.poolMax),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr.pipe(log, { end: false });
  child.once("close", () => log.end()); // after the last line of output
  const forgetChild = killChildWithParent(child);
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the HTTP floor did not start within 60 s (see ${options.logFile})`)), 60_000);
    child.once("exit", (code) => reject(new Error(`the HTTP floor exited with code ${code} before it was ready (see ${options.logFile})`)));
    createInterface({ input: child.stdout }).on("line", (line) => {
      log.write(`${line}\n`);
      if (line.startsWith("ready")) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  const stop = () => stopChild(child).finally(forgetChild);
  await ready.catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { baseUrl: `http://127.0.0.1:${port}`, stop };
}
