// What every admin CLI here does around its work: usage errors exit 2 with
// the usage text, other failures exit 1 with one readable line, success
// exits 0 explicitly (an open embedded PGlite database can keep the event
// loop alive).

/** Bad command-line input: printed with the usage text, exit code 2. */
export class UsageError extends Error {}

export function runCli(
  name: string,
  usage: string,
  main: (argv: string[]) => Promise<void>,
  options: { isInputError?: (error: unknown) => boolean } = {},
): void {
  main(process.argv.slice(2)).then(
    () => process.exit(0),
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
        console.error(message ? `${message}\n${usage}` : usage);
        process.exit(2);
      }
      console.error(`${name} failed: ${message}`);
      process.exit(options.isInputError?.(error) ? 2 : 1);
    },
  );
}
