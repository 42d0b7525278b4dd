import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { inject } from "vitest";

const run = promisify(execFile);

/**
 * `npm run simulate` (`tsx scripts/cli/simulate.ts`) against the shared API
 * server with its state under `stateDir`, in a process of its own started
 * with `node --import tsx`: one process where `npx tsx` starts three (npx,
 * tsx's CLI, node), half the CPU for each run (issue 33). Resolves with its
 * output; a failing run's stderr and exit code are appended.
 */
export function simulator(stateDir: () => string) {
  return async (...args: string[]): Promise<string> => {
    const { stdout } = await run(process.execPath, [
      "--import",
      "tsx",
      "scripts/cli/simulate.ts",
      ...args,
      "--url",
      inject("baseUrl"),
      "--state-dir",
      stateDir(),
    ]).catch((error: { stdout: string; stderr: string; code: number }) => ({
      stdout: `${error.stdout}${error.stderr}\nexit ${error.code}`,
    }));
    return stdout;
  };
}
