import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { freePort, startAppServer, type AppServer } from "../harness/start-app-server";
import { startPostgresCluster, type PostgresCluster } from "../harness/postgres-cluster";
import { runNpmScript } from "../harness/run-npm-script";

// The fault suite's own PostgreSQL: these tests restart it and kill app
// processes, which the shared test database and server must never see.

export interface FaultDatabase {
  cluster: PostgresCluster;
  /** what an app process started against it needs */
  env: Record<string, string>;
}

/**
 * A fresh cluster, migrated; this test process's db client (the helpers in
 * test/api/) points at it from now on, so it must run before their first query.
 */
export async function startFaultDatabase(): Promise<FaultDatabase> {
  const cluster = await startPostgresCluster();
  const env = {
    DATABASE_URL: cluster.url,
    BC_CA_KEY_ENCRYPTION_KEY: process.env.BC_CA_KEY_ENCRYPTION_KEY ?? randomBytes(32).toString("base64"),
    BC_WORKERS: "off",
    BC_LOG_LEVEL: "info",
  };
  await runNpmScript("db:migrate", env);
  Object.assign(process.env, env);
  return { cluster, env };
}

/** What the callers saw, printed at the end of each scenario. */
export class Tally {
  calls = 0;
  retries = 0;
  unavailable = 0;
  unavailableWithoutRetryAfter = 0;
  connectionErrors = 0;
  readonly statuses = new Map<number, number>();

  constructor(readonly scenario: string) {}

  count(status: number, retryAfter: string | null): void {
    this.calls++;
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    if (status === 503) {
      this.unavailable++;
      if (!retryAfter || !/^\d+$/.test(retryAfter)) this.unavailableWithoutRetryAfter++;
    }
  }

  print(extra: Record<string, number> = {}): void {
    const statuses = [...this.statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}×${n}`)
      .join(" ");
    const more = Object.entries(extra)
      .map(([key, value]) => `${key}=${value}`)
      .join(" ");
    console.log(
      `[faults] ${this.scenario}: calls=${this.calls} (${statuses}) 503s=${this.unavailable} retries=${this.retries} ` +
        `connection-errors=${this.connectionErrors} ${more}`.trimEnd(),
    );
  }
}

export interface Answer {
  status: number;
  body: any;
  text: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Calls until the answer is neither 503 nor a dropped connection, as a client
 * that honours Retry-After would (the wait is capped so the suite stays quick;
 * the header's presence is what `tally` checks).
 */
export async function callUntilAnswered(tally: Tally, call: () => Promise<Response>, deadlineMs = 90_000): Promise<Answer> {
  const giveUpAt = Date.now() + deadlineMs;
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0) tally.retries++;
    if (Date.now() > giveUpAt) throw new Error(`${tally.scenario}: no answer but 503s or dropped connections for ${deadlineMs} ms`);
    let response: Response;
    try {
      response = await call();
    } catch {
      tally.connectionErrors++; // the app process is gone or restarting
      await sleep(100);
      continue;
    }
    const text = await response.text().catch(() => undefined);
    if (text === undefined) {
      tally.connectionErrors++; // dropped mid-answer
      continue;
    }
    tally.count(response.status, response.headers.get("retry-after"));
    if (response.status === 503) {
      await sleep(Math.min(Number(response.headers.get("retry-after")) * 1000 || 0, 200));
      continue;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, body, text };
  }
}

export function postMethod(baseUrl: string, method: string, bearer: string, body: unknown): () => Promise<Response> {
  return () =>
    fetch(`${baseUrl}/api/compute/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
      body: JSON.stringify(body),
    });
}

/** Runs `work` over `items` with at most `concurrency` at once. */
export async function inParallel<T, R>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!, index);
      }
    }),
  );
  return results;
}

/** SIGKILL for an `npm start` primary and the app processes it forked: nothing gets to clean up. */
export function killEveryProcess(server: AppServer): void {
  const children = readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  for (const pid of [server.pid, ...children]) process.kill(pid, "SIGKILL");
}

/** `npm start` (2 app processes) on the fault database, started again on the same port after each kill. */
export interface KillableApp {
  start(): Promise<AppServer>;
  /** the last one started */
  latest(): AppServer;
  /** every one started, for afterAll */
  stopAll(): Promise<void>;
}

export async function killableApp(database: FaultDatabase, logFile: string, env: Record<string, string> = {}): Promise<KillableApp> {
  const port = await freePort();
  const servers: AppServer[] = [];
  return {
    async start() {
      const server = await startAppServer({
        databaseUrl: database.cluster.url,
        logFile,
        env: { ...database.env, ...env },
        port,
        processes: 2,
      });
      servers.push(server);
      return server;
    },
    latest: () => servers.at(-1)!,
    async stopAll() {
      for (const server of servers) await server.stop().catch(() => {});
    },
  };
}
