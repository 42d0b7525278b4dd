import "server-only";
import { log } from "../log";
import { checkStartConfig } from "./start-config";

/** The exit code of a refused start; scripts/serve.mjs stops every process on it. */
export const CONFIGURATION_ERROR_EXIT_CODE = 2;

/**
 * Exits the process (code 2) with one line on stderr naming what is wrong,
 * before it serves anything; logs what is merely unwise.
 */
export function refuseMisconfiguredStart(): void {
  const { problem, warnings } = checkStartConfig();
  if (problem) {
    process.stderr.write(`configuration error: ${problem}\n`);
    process.exit(CONFIGURATION_ERROR_EXIT_CODE);
  }
  for (const warning of warnings) log.warn(warning);
}
