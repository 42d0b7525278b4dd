import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";

// Processes of the HA cluster outlive the command that started them
// (`npm run ha:up` returns; `ha:down` stops them later), so each runs
// detached in its own process group, output to a log file, and is found
// again by the pid recorded in the cluster's state file.

/** PostgreSQL and so Patroni (which runs it) refuse root: as root they run as `postgres`. */
export function asPostgresUser(file: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, args];
}

export function spawnDetached(file: string, args: string[], logFile: string, cwd: string): number {
  const out = openSync(logFile, "a");
  try {
    const child = spawn(file, args, { detached: true, stdio: ["ignore", out, out], cwd });
    if (!child.pid) throw new Error(`${file} did not start`);
    child.unref();
    return child.pid;
  } finally {
    closeSync(out);
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Signals the process group `pid` leads; nothing when it is gone already. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // gone already
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** SIGTERM to the group, SIGKILL after `graceMs`; resolves once the leader of the group is gone. */
export async function stopGroup(pid: number, graceMs = 15_000): Promise<void> {
  signalGroup(pid, "SIGTERM");
  const killAt = Date.now() + graceMs;
  while (isAlive(pid)) {
    if (Date.now() > killAt) signalGroup(pid, "SIGKILL");
    await sleep(100);
  }
}

/**
 * The postmaster's pid from its data directory. Patroni starts PostgreSQL in
 * a session of its own (setsid), so stopping Patroni's group does not reach it.
 */
export function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(`${dataDir}/postmaster.pid`, "utf8").split("\n")[0]);
    return pid > 0 && isAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`HA cluster: ${what} not within ${timeoutMs} ms${last ? ` (${String(last)})` : ""}`);
    await sleep(everyMs);
  }
}

/**
 * SIGKILL for a postmaster and every process it forked. Each of PostgreSQL's
 * children leads a process group of its own, so a group kill would miss them;
 * orphaned backends would otherwise linger until they notice.
 */
export function killPostmaster(pid: number): void {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // no /proc: the backends exit on their own once they see the postmaster gone
  }
  for (const target of [pid, ...children]) {
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // gone already
    }
  }
}
