import { spawn } from "node:child_process";

/** Runs `npm run <script>` with extra env, inheriting output; rejects on failure. */
export function runNpmScript(script: string, env: Record<string, string> = {}, args: string[] = []): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", script, ...(args.length ? ["--", ...args] : [])], {
      stdio: "inherit",
      env: { ...process.env, ...env },
    });
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`npm run ${script} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}
