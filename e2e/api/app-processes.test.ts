import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startAppServer, type AppServer } from "@/test/harness/start-app-server";
import { callMethod } from "@/test/api/api-client";
import { createWorld, eventsOf, makeRequests, storedRequest, type World } from "@/test/api/world";

// `npm start` (scripts/serve.mjs) runs one app process per core behind one
// port. The app keeps no state of its own, so decisions racing through
// different processes must still have exactly one winner.

/** The app processes the primary forked, and the CPU time (ticks) each has used. */
function appProcesses(primaryPid: number): Map<number, number> {
  const children = readFileSync(`/proc/${primaryPid}/task/${primaryPid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  return new Map(
    children.map((pid) => {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      return [pid, Number(fields[11]) + Number(fields[12])]; // utime + stime
    }),
  );
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Runs scripts/serve.mjs to its exit; what it printed and its exit code. */
function runServe(env: Record<string, string | undefined>, args: string[] = []) {
  return runToExit(process.execPath, ["scripts/serve.mjs", "-H", "127.0.0.1", ...args], env);
}
const runNpm = (args: string[], env: Record<string, string | undefined>) => runToExit("npm", args, env);

function runToExit(command: string, args: string[], env: Record<string, string | undefined>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(command, args, {
      env: { ...process.env, BC_WORKERS: "off", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("two app processes behind one port", () => {
  let server: AppServer;
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
    server = await startAppServer({
      databaseUrl: process.env.DATABASE_URL!,
      logFile: `test-results/app-processes-${process.pid}.log`,
      processes: 2,
      env: { BC_WORKERS: "off" },
    });
  }, 90_000);
  afterAll(() => server?.stop());

  it("forks two processes and both serve requests", async () => {
    // the server answers once one process is up; measure once both are
    await expect.poll(() => readFileSync(server.logFile, "utf8").match(/Ready in/g)?.length ?? 0, { timeout: 30_000 }).toBe(2);
    const before = appProcesses(server.pid);
    expect(before.size).toBe(2);
    const list = () =>
      callMethod(
        "joinRequests/list",
        { tenantId: world.tenantId, poolId: world.pools.a },
        { bearer: world.keys.admin, baseUrl: server.baseUrl },
      );
    for (let round = 0; round < 10; round++) {
      const responses = await Promise.all(Array.from({ length: 20 }, list));
      expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
    }
    const after = appProcesses(server.pid);
    // 200 lists cost each process tens of 10 ms ticks; an idle one stays put
    for (const [pid, ticks] of after) expect(ticks - before.get(pid)!, `CPU ticks of app process ${pid}`).toBeGreaterThan(5);
  });

  it("30 rounds of approve and reject racing through the processes: one outcome, one event per transition", async () => {
    const ids = await makeRequests(world, 30, { poolId: world.pools.a });
    const decide = (method: "approve" | "reject", requestId: string) =>
      callMethod(
        `joinRequests/${method}`,
        { tenantId: world.tenantId, poolId: world.pools.a, requestId },
        { bearer: world.keys.admin, baseUrl: server.baseUrl },
      );
    for (const id of ids) {
      const [approveA, approveB, reject] = await Promise.all([decide("approve", id), decide("approve", id), decide("reject", id)]);
      expect(reject.status, reject.text).toBe(200);
      expect((await storedRequest(id)).state).toBe("rejected");
      const types = (await eventsOf(id)).map((event) => event.type);
      const approvals = [approveA, approveB].filter((response) => response.status === 200);
      // an approval that won is reported by both approves (the second sees it unchanged), then withdrawn
      expect(types.filter((type) => type.endsWith(".approved"))).toHaveLength(approvals.length > 0 ? 1 : 0);
      expect(types.filter((type) => type.endsWith(".rejected"))).toHaveLength(1);
    }
  });

  it("a crashed process is replaced, after a back-off that doubles while replacements die young; the other keeps serving", async () => {
    const list = () =>
      fetch(`${server.baseUrl}/api/compute/joinRequests/list`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${world.keys.admin}` },
        body: JSON.stringify({ tenantId: world.tenantId, poolId: world.pools.a }),
        signal: AbortSignal.timeout(10_000),
      });
    const statuses: number[] = [];
    let dropped = 0; // a call in flight in the killed process loses its connection
    let serving = true;
    const traffic = (async () => {
      while (serving)
        await list().then(
          (response) => statuses.push(response.status),
          () => dropped++,
        );
    })();
    const log = () => readFileSync(server.logFile, "utf8");
    let victim = [...appProcesses(server.pid).keys()][0]!;
    let kills = 0;
    try {
      // Each kill's back-off, as scripts/serve.mjs logs it: 1 s for the first
      // replacement that died young (under 60 s), doubling for each next one;
      // none for a process that served longer. The first victim has served
      // the tests above: on a loaded machine that can pass 60 s, and then the
      // doubling starts with its replacement. Kill until two died young.
      let youngDeaths = 0;
      while (youngDeaths < 2) {
        kills++;
        const survivors = [...appProcesses(server.pid).keys()].filter((pid) => pid !== victim);
        process.kill(victim, "SIGKILL");
        const exited = new RegExp(`app process ${victim} exited \\(SIGKILL\\) after (\\d+) ms; starting another in (\\d+) ms`);
        await expect.poll(log, { timeout: 10_000 }).toMatch(exited);
        const [, ranFor, delay] = exited.exec(log())!;
        youngDeaths = Number(ranFor) < 60_000 ? youngDeaths + 1 : 0;
        expect(Number(delay), `back-off after a process that ran ${ranFor} ms`).toBe(youngDeaths === 0 ? 0 : 1000 * 2 ** (youngDeaths - 1));
        const replacement = async () => [...appProcesses(server.pid).keys()].find((pid) => pid !== victim && !survivors.includes(pid));
        await expect.poll(replacement, { timeout: 15_000 }).toBeDefined();
        victim = (await replacement())!;
        await expect.poll(log, { timeout: 30_000 }).toContain(`app process ${victim} serving`);
      }
      // A connection the primary handed to the process as it was killed hangs
      // until the client's timeout (10 s): on a loaded machine that can be the
      // whole kill sequence, so keep calling until the survivors have answered.
      await expect.poll(() => statuses.length, { timeout: 30_000 }).toBeGreaterThan(0);
    } finally {
      // a failure above must not leave the calls running into the next test's stop
      serving = false;
      await traffic;
    }
    expect(appProcesses(server.pid).size).toBe(2);
    expect(
      statuses.filter((status) => status !== 200),
      "answers other than 200 while one process was down",
    ).toEqual([]);
    expect(dropped, "calls cut off by the kills (one at a time in flight)").toBeLessThanOrEqual(kills);
  }, 120_000);

  it("SIGTERM stops every process and exits 0", async () => {
    const children = [...appProcesses(server.pid).keys()];
    const exited = new Promise<number | null>((resolve) => {
      const poll = setInterval(() => {
        if (!isAlive(server.pid)) {
          clearInterval(poll);
          resolve(null);
        }
      }, 50);
    });
    await server.stop();
    await exited;
    await expect.poll(() => children.filter(isAlive)).toEqual([]);
  });
});

describe("scripts/serve.mjs refuses a configuration it cannot run", () => {
  it("BC_WEB_CONCURRENCY that is not a whole number ≥ 1: exit 2, naming the variable", async () => {
    for (const value of ["abc", "0", "1.5"]) {
      const { code, output } = await runServe({ BC_WEB_CONCURRENCY: value });
      expect(code, output).toBe(2);
      expect(output).toContain(`BC_WEB_CONCURRENCY must be a whole number ≥ 1, not "${value}"`);
    }
  });

  it("BC_METRICS_PORT that is not a port number: exit 2, naming the variable", async () => {
    for (const value of ["abc", "0", "65536"]) {
      const { code, output } = await runServe({ BC_METRICS_PORT: value });
      expect(code, output).toBe(2);
      expect(output).toContain(`BC_METRICS_PORT must be a whole number from 1 to 65535, not "${value}"`);
    }
  });

  it("a BC_METRICS_PORT already taken: exit 2 naming it, not a server without its metrics", async () => {
    const metricsPort = await freePort();
    const blocker = createServer().listen(metricsPort, "127.0.0.1");
    await new Promise((resolve) => blocker.once("listening", resolve));
    try {
      const { code, output } = await runServe(
        { BC_WEB_CONCURRENCY: "1", BC_METRICS_PORT: String(metricsPort), BC_METRICS_HOST: "127.0.0.1" },
        ["-p", String(await freePort())],
      );
      expect(code, output).toBe(2);
      expect(output).toContain(`BC_METRICS_PORT ${metricsPort}: cannot listen (EADDRINUSE)`);
    } finally {
      blocker.close();
    }
  });

  it("more than one process without DATABASE_URL (the embedded database lives in one process): exit 2", async () => {
    const { code, output } = await runServe({ BC_WEB_CONCURRENCY: "2", DATABASE_URL: "" });
    expect(code, output).toBe(2);
    expect(output).toContain("needs DATABASE_URL");
  });

  it.each([
    [
      "NEXTAUTH_SECRET missing",
      { NEXTAUTH_SECRET: undefined },
      "configuration error: NEXTAUTH_SECRET must be set when DATABASE_URL is set",
    ],
    ["NEXTAUTH_SECRET too short", { NEXTAUTH_SECRET: "short" }, "configuration error: NEXTAUTH_SECRET is 5 characters"],
    [
      "BC_CA_KEY_ENCRYPTION_KEY missing",
      { BC_CA_KEY_ENCRYPTION_KEY: undefined },
      "configuration error: BC_CA_KEY_ENCRYPTION_KEY must be set when DATABASE_URL is set",
    ],
    [
      "BC_CA_KEY_ENCRYPTION_KEY malformed",
      { BC_CA_KEY_ENCRYPTION_KEY: "not-a-key" },
      "configuration error: BC_CA_KEY_ENCRYPTION_KEY must be 32 bytes",
    ],
  ])("%s with DATABASE_URL: exit 2 at once, one line naming it, nothing served", async (_, change, line) => {
    const port = await freePort();
    const started = Date.now();
    const { code, output } = await runServe({ BC_WEB_CONCURRENCY: "2", ...change }, ["-p", String(port)]);
    expect(code, output).toBe(2);
    expect(
      output.split("\n").filter((text) => text.includes("configuration error")),
      output,
    ).toEqual([expect.stringContaining(line)]);
    expect(output).toContain("openssl rand -base64 32");
    expect(output).not.toMatch(/app process \d+ serving/); // none passed its checks
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("npm run worker refuses the same way: exit 2, one line", async () => {
    const { code, output } = await runNpm(["run", "--silent", "worker"], { NEXTAUTH_SECRET: undefined });
    expect(code, output).toBe(2);
    expect(output.trim().split("\n")).toEqual([expect.stringMatching(/^configuration error: NEXTAUTH_SECRET must be set/)]);
  });

  it("app processes that die at start (port taken) stop the whole server with a failure, not a restart loop", async () => {
    const port = await freePort();
    const blocker = createServer().listen(port, "127.0.0.1");
    await new Promise((resolve) => blocker.once("listening", resolve));
    try {
      const { code, output } = await runServe({ BC_WEB_CONCURRENCY: "2" }, ["-p", String(port)]);
      expect(code, output).not.toBe(0);
      expect(output).toMatch(/exited .* after start, before serving; stopping/);
      expect(output).not.toContain("starting another");
    } finally {
      blocker.close();
    }
  });
});
