import { readFileSync } from "node:fs";
import { spawn } from "node:child_process";

// The first deployment's commands, as docs/deployment.md shows them: a fenced
// block after an HTML comment `<!-- first-deployment: <name> -->`. Tests run
// them verbatim, so a page that drifts from the product fails the suite.

export const DEPLOYMENT_PAGE = "docs/deployment.md";

export function deploymentBlock(name: string, page = readFileSync(DEPLOYMENT_PAGE, "utf8")): string {
  const marker = `<!-- first-deployment: ${name} -->`;
  const at = page.indexOf(marker);
  if (at < 0) throw new Error(`${DEPLOYMENT_PAGE} has no block marked ${marker}`);
  const fence = /```sh\n([\s\S]*?)```/.exec(page.slice(at + marker.length));
  if (!fence) throw new Error(`no sh block after ${marker}`);
  return fence[1]!;
}

/** Runs a block with bash (errexit, pipefail, nounset); resolves with its output, rejects naming the failing output. */
export function runBlock(script: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-euo", "pipefail", "-c", script], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(output) : reject(new Error(`exit ${code}:\n${output}`))));
  });
}
