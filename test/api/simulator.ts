import { inject } from "vitest";

/** The simulator's runner as the `npm run simulate` entry calls it, handed in by the test (test/ imports nothing from scripts/). */
export interface SimulatorUnderTest {
  run: (argv: string[], out: { log(line: string): void; error(line: string): void }) => Promise<number>;
  /** how the entry turns a thrown error into its line and exit code */
  failure: (error: unknown) => { line: string; code: number };
}

/**
 * `npm run simulate -- …` against the shared API server with its state under
 * `stateDir`, run in this process with the entry's runner: a process of its
 * own per run cost ~2 s of CPU, mostly loading tsx and the modules this
 * worker has already loaded (issue 33). Resolves with its lines, errors
 * among them in order; a run that does not exit 0 ends with `exit <code>`.
 * (The entry itself runs as a process in simulator-rack.test.ts.)
 */
export function simulator(stateDir: () => string, simulate: SimulatorUnderTest) {
  return async (...args: string[]): Promise<string> => {
    const lines: string[] = [];
    const out = { log: (line: string) => void lines.push(line), error: (line: string) => void lines.push(line) };
    let code: number;
    try {
      code = await simulate.run([...args, "--url", inject("baseUrl"), "--state-dir", stateDir()], out);
    } catch (error) {
      const failure = simulate.failure(error);
      lines.push(failure.line);
      code = failure.code;
    }
    if (code !== 0) lines.push(`exit ${code}`);
    return `${lines.join("\n")}\n`;
  };
}
