import { randomBytes } from "node:crypto";
import { getDb } from "@/server/db/client";
import { cliFailure } from "../../scripts/cli/run-cli";
import { ADMIN_USAGE, runAdmin } from "../../scripts/cli/admin/run-admin";

// Runs `npm run admin -- …` in this process against the test database, with
// the exit code and stderr the real command would give (the same runner).

export interface AdminRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function admin(argv: string[], options: { stdin?: string; files?: Record<string, string> } = {}): Promise<AdminRun> {
  const lines: string[] = [];
  const db = await getDb();
  const io = {
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
    await runAdmin(argv, io);
    return { code: 0, stdout: lines.join("\n"), stderr: "" };
  } catch (error) {
    const failure = cliFailure("admin", ADMIN_USAGE, error);
    return { code: failure.code, stdout: lines.join("\n"), stderr: failure.stderr };
  }
}

export const json = <T = Record<string, unknown>>(run: AdminRun): T => JSON.parse(run.stdout) as T;

export const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString("hex")}`;

/** A tenant with one site and two pools, made through the CLI. */
export async function adminWorld() {
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
