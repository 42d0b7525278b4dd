/**
 * Where the simulator writes its lines: the console when run as
 * `npm run simulate`, a list when a test runs it in its own process.
 */
export interface SimulatorOutput {
  log(line: string): void;
  error(line: string): void;
}

export const consoleOutput: SimulatorOutput = {
  log: (line) => console.log(line),
  error: (line) => console.error(line),
};
