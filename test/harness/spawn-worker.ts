import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

/**
 * `npm run worker` as the tests start it: node itself, not npm. Under npm the
 * child is npm's process, and a SIGKILL to it orphans the worker, which kept
 * delivering (and a core busy) after the fault test "killed" it. The
 * arguments are package.json's "worker" script's.
 */
export function spawnWorker(options: SpawnOptions): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", "scripts/worker.ts"], options);
}
