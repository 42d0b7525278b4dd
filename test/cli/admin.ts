import { randomBytes } from "node:crypto";
import { getDb, type Db } from "@/server/db/client";

// Runs `npm run admin -- …` in this process against the test database, with
// the exit code and stderr the real command would give (the same runner).
// The runner itself (scripts/cli/admin/run-admin.ts) and its failure mapping
// (scripts/cli/run-cli.ts) are handed in by the test: test/ sits below
// scripts/ and imports nothing from it.

export interface AdminRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** What the admin runner is given in place of the process's stdout, stdin and files. */
export interface CapturedIo {
  db: Db;
  print: (line: string) => void;
  readStdin: () => Promise<string>;
  readFile: (path: string) => Promise<string>;
}

export interface AdminUnderTest {
  /** runAdmin, as the `npm run admin` entry point calls it */
  main: (argv: string[], io: CapturedIo) => Promise<void>;
  /** how the entry point turns a thrown error into an exit code and stderr (cliFailure) */
  failure: (error: unknown) => { code: number; stderr: string };
}

export function inProcessAdmin(cli: AdminUnderTest) {
  async function admin(argv: string[], options: { stdin?: string; files?: Record<string, string> } = {}): Promise<AdminRun> {
    const lines: string[] = [];
    const db = await getDb();
    const io: CapturedIo = {
      db,
      print: (line: string) => lines.push(line),
      readStdin: async () => options.stdin ?? "",
      readFile: async (path: string) => {
        const content = options.files?.[path];
        if (content === undefined) throw new Error(`ENOENT: no such file ${path}`);
        return content;
      },
    };
    try {
      await cli.main(argv, io);
      return { code: 0, stdout: lines.join("\n"), stderr: "" };
    } catch (error) {
      const failure = cli.failure(error);
      return { code: failure.code, stdout: lines.join("\n"), stderr: failure.stderr };
    }
  }

  /** A tenant with one site and two pools, made through the CLI. */
  async function adminWorld() {
    const tenantId = unique("t");
    const siteId = unique("s");
    const pools = [unique("pa"), unique("pb")] as const;
    for (const argv of [
      ["tenants", "create", "--id", tenantId],
      ["sites", "create", "--tenant", tenantId, "--id", siteId],
      ["pools", "create", "--tenant", tenantId, "--site", siteId, "--id", pools[0]],
      ["pools", "create", "--tenant", tenantId, "--site", siteId, "--id", pools[1]],
    ]) {
      const run = await admin(argv);
      if (run.code !== 0) throw new Error(`${argv.join(" ")}: ${run.stderr}`);
    }
    return { tenantId, siteId, pools };
  }

  return { admin, adminWorld };
}

export const json = <T = Record<string, unknown>>(run: AdminRun): T => JSON.parse(run.stdout) as T;

export const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString("hex")}`;
