// What every admin CLI here does around its work: usage errors exit 2 with
// the usage text, other failures exit 1 with one readable line, success
// exits 0 explicitly (an open embedded PGlite database can keep the event
// loop alive).

/** Bad command-line input: printed with the usage text, exit code 2. */
export class UsageError extends Error {
  constructor(
    message = "",
    readonly usage?: string,
  ) {
    super(message);
  }
}

/** What a failed command prints on stderr and exits with. */
export function cliFailure(name: string, usage: string, error: unknown): { code: number; stderr: string } {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    const text = error instanceof UsageError && error.usage ? error.usage : usage;
    return { code: 2, stderr: message ? `${message}\n${text}` : text };
  }
  return { code: 1, stderr: `${name} failed: ${oneLine(message)}` };
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ");

export function runCli(name: string, usage: string, main: (argv: string[]) => Promise<void>): void {
  main(process.argv.slice(2)).then(
    () => process.exit(0),
    (error: unknown) => {
      const failure = cliFailure(name, usage, error);
      console.error(failure.stderr);
      process.exit(failure.code);
    },
  );
}
