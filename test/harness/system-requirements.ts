// What `npm test` needs from the system besides npm's packages, checked
// before anything else runs (seconds, not after the build and the unit
// tests): PostgreSQL's server binaries (the harness runs its own throwaway
// cluster), Chromium's headless shell (Playwright cannot download browsers here), curl (the
// README's first deployment), a software TPM (SPEC F1's tests), and Patroni,
// etcd and HAProxy (the HA fault test). As root
// it installs what is missing from Debian's packages, the way CI needs; as
// anyone else it names the one command to run.
import { spawn } from "node:child_process";
import { findPostgresBinaries } from "./postgres-cluster";
import { missingTpmCommands } from "./swtpm";
import { commandOnPath, isExecutable } from "./command-on-path";
import { CHROMIUM_HEADLESS_SHELL } from "./chromium";

export interface Requirement {
  what: string;
  debianPackages: string[];
  present(): Promise<boolean>;
}

export const REQUIREMENTS: Requirement[] = [
  {
    what: "PostgreSQL's server binaries",
    debianPackages: ["postgresql"],
    present: () =>
      findPostgresBinaries().then(
        () => true,
        () => false,
      ),
  },
  {
    what: `Chromium's headless shell at ${CHROMIUM_HEADLESS_SHELL}`,
    debianPackages: ["chromium-headless-shell"],
    present: async () => isExecutable(CHROMIUM_HEADLESS_SHELL),
  },
  { what: "curl", debianPackages: ["curl"], present: async () => commandOnPath("curl") },
  { what: "a software TPM (swtpm)", debianPackages: ["swtpm", "swtpm-tools"], present: async () => commandOnPath("swtpm") },
  {
    what: "tpm2-tools",
    debianPackages: ["tpm2-tools"],
    present: async () => missingTpmCommands().every((command) => !command.startsWith("tpm2_")),
  },
  {
    // the HA fault test's cluster (issue 37, docs/high-availability.md); etcd-client brings etcdctl
    what: "Patroni, etcd and HAProxy",
    debianPackages: ["patroni", "etcd-server", "etcd-client", "haproxy"],
    present: async () => ["patroni", "etcd", "haproxy"].every((command) => commandOnPath(command)),
  },
];

/** What `npm run ha:up` needs: PostgreSQL's server binaries and the cluster manager around them. */
export const HA_REQUIREMENTS = REQUIREMENTS.filter((requirement) => /PostgreSQL|Patroni/.test(requirement.what));

export type Plan = { kind: "ready" } | { kind: "install"; packages: string[]; missing: string[] } | { kind: "refuse"; message: string };

/** What to do about the missing requirements: nothing, install them (root), or one line naming the command. */
export function planFor(missing: Requirement[], isRoot: boolean, caller = "npm test"): Plan {
  if (missing.length === 0) return { kind: "ready" };
  const packages = [...new Set(missing.flatMap((requirement) => requirement.debianPackages))];
  const names = missing.map((requirement) => requirement.what);
  if (isRoot) return { kind: "install", packages, missing: names };
  return {
    kind: "refuse",
    message: `${caller} needs ${names.join(", ")}: run \`sudo apt-get install -y ${packages.join(" ")}\` (or run ${caller} as root, which installs them)`,
  };
}

export async function missingRequirements(requirements: Requirement[] = REQUIREMENTS): Promise<Requirement[]> {
  const present = await Promise.all(requirements.map((requirement) => requirement.present()));
  return requirements.filter((_, index) => !present[index]);
}

/**
 * Makes the system ready or says why it cannot: true when every requirement
 * is met (after installing, as root), false after printing the one line.
 */
export async function ensureSystemRequirements(
  log: (line: string) => void = console.log,
  { requirements = REQUIREMENTS, caller = "npm test" }: { requirements?: Requirement[]; caller?: string } = {},
): Promise<boolean> {
  const plan = planFor(await missingRequirements(requirements), process.getuid?.() === 0, caller);
  if (plan.kind === "ready") return true;
  if (plan.kind === "refuse") {
    console.error(plan.message);
    return false;
  }
  log(`Installing Debian packages for ${plan.missing.join(", ")}: ${plan.packages.join(" ")}`);
  // postgresql may create and start its own cluster on 5432: harmless, the harness's is separate.
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  if ((await run("apt-get", ["update"], env)) !== 0 || (await run("apt-get", ["install", "-y", ...plan.packages], env)) !== 0) {
    console.error(`${caller}: apt-get install -y ${plan.packages.join(" ")} failed`);
    return false;
  }
  const still = await missingRequirements(requirements);
  if (still.length > 0)
    console.error(`${caller}: still missing after the install: ${still.map((requirement) => requirement.what).join(", ")}`);
  return still.length === 0;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", env });
    child.on("error", () => resolve(127));
    child.on("exit", (code) => resolve(code ?? 1));
  });
}
