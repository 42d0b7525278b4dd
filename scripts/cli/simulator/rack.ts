// `npm run simulate -- rack`: a rack of similar machines joining at once, as
// after a power event (issue 35), so an approval rule can be watched working.
// Each machine is new to discovery (a deferred join), named
// <pool>-r<rack>-<nnn>.<site>.<tenant>.test, and joins through the site's demo
// enrollment key unless --token says otherwise: the shape gpu-b's seeded rule
// ("approve hostnames gpu-b-*.fra1.acme.test from the fra1 enrollment key")
// matches. Then each sends its CSR once more, as a daemon retries: a rule's
// decision shows on that retry (SPEC H2: the first answer is always B5's 202).
import path from "node:path";
import pLimit from "p-limit";
import { makeKeyAndCsr } from "@/server/pki/make-csr";
import { DEMO_POOLS } from "@/server/seed/demo-data";
import { unknownHardware } from "./scenarios";
import { demoBearer, saveMachine, type SavedMachine } from "./saved-machine";
import type { SimulatorOutput } from "./output";

export interface RackOptions {
  url: string;
  pool: string;
  site?: string;
  token?: string;
  domain?: string;
  count: number;
  concurrency: number;
  /** the rack's number in its hostnames (random 10–99 when not given) */
  rack?: string;
  /** join only, no retry round */
  once: boolean;
  stateDir: string;
}

const MAX_COUNT = 10_000;
const MAX_CONCURRENCY = 256;

/** What one round of answers came to: B5's outcomes, and any other status by code. */
export class RoundTally {
  admitted = 0;
  pending = 0;
  rejected = 0;
  readonly other = new Map<string, number>();

  count(status: number, body: { status?: string; error?: { code?: string } }): void {
    if (status === 200 && body.status === "admitted") this.admitted++;
    else if (status === 202 && body.status === "pending") this.pending++;
    else if (status === 403 && body.error?.code === "JOIN_REJECTED") this.rejected++;
    else {
      const key = `${status}${body.error?.code ? ` ${body.error.code}` : ""}`;
      this.other.set(key, (this.other.get(key) ?? 0) + 1);
    }
  }

  toString(): string {
    const other = [...this.other].map(([key, n]) => `${key} ×${n}`).join(", ");
    return `admitted ${this.admitted}, pending ${this.pending}, rejected ${this.rejected}${other ? `, other: ${other}` : ""}`;
  }
}

/** "bcse_demofra1.…" → "enrollment key demofra1": the credential named without its secret. */
const credentialLabel = (bearer: string) =>
  `${bearer.startsWith("bcse_") ? "enrollment key" : "join token"} ${bearer.slice(5, bearer.indexOf("."))}`;

function parseRackOptions(options: RackOptions): string | null {
  if (!Number.isInteger(options.count) || options.count < 1 || options.count > MAX_COUNT) return `--count must be 1–${MAX_COUNT}`;
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1 || options.concurrency > MAX_CONCURRENCY)
    return `--concurrency must be 1–${MAX_CONCURRENCY}`;
  if (options.rack !== undefined && !/^[0-9a-z]{1,8}$/.test(options.rack)) return "--rack must be 1–8 lowercase letters or digits";
  return null;
}

export async function rackCommand(out: SimulatorOutput, options: RackOptions): Promise<number> {
  const problem = parseRackOptions(options);
  if (problem) {
    out.error(problem);
    return 2;
  }
  const demoPool = DEMO_POOLS.find((pool) => pool.id === options.pool);
  const site = options.site ?? demoPool?.siteId;
  if (!site) throw new Error(`pool ${options.pool} is not a demo pool: pass --site (and --token)`);
  const domain = options.domain ?? (demoPool ? `${site}.${demoPool.tenantId}.test` : `${site}.test`);
  const bearer = options.token ?? demoSiteOrPoolBearer(options.pool, site);
  const rack = `r${options.rack ?? String(10 + Math.floor(Math.random() * 90))}`;
  const width = Math.max(3, String(options.count).length);
  const hostnames = Array.from(
    { length: options.count },
    (_, i) => `${options.pool}-${rack}-${String(i + 1).padStart(width, "0")}.${domain}`,
  );
  const viaSite = bearer.startsWith("bcse_");
  out.log(
    `rack ${rack}: ${options.count} machines ${hostnames[0]} … ${hostnames.at(-1)} join ` +
      `${viaSite ? `site ${site}` : `pool ${options.pool}`} through ${credentialLabel(bearer)} at ${options.url}, ${options.concurrency} at once`,
  );
  const machines = await Promise.all(
    hostnames.map(async (hostname): Promise<SavedMachine> => {
      const { privateKeyPem, csrPem } = await makeKeyAndCsr(hostname);
      const saved: SavedMachine = {
        scenario: "unknown",
        ...(viaSite ? { site } : { pool: options.pool }),
        body: { csr: csrPem, hostname, hardware: unknownHardware(), tpm: null },
      };
      await saveMachine(path.join(options.stateDir, hostname.split(".")[0]!), saved, privateKeyPem);
      return saved;
    }),
  );
  const joined = await sendRound(options, bearer, machines);
  out.log(`joined in ${joined.seconds.toFixed(1)} s: ${joined.tally}`);
  let last = joined.tally;
  if (!options.once) {
    const retried = await sendRound(options, bearer, machines);
    out.log(`retried in ${retried.seconds.toFixed(1)} s (the same CSRs; a rule's decision shows here): ${retried.tally}`);
    last = retried.tally;
  }
  const first = hostnames[0]!.split(".")[0]!;
  out.log(`state: ${path.join(options.stateDir, `${options.pool}-${rack}-*`)} (one machine again: npm run simulate -- retry ${first})`);
  return joined.tally.other.size === 0 && last.other.size === 0 ? 0 : 1;
}

/** The site's demo enrollment key (what gpu-b's seeded rule asks for), else the pool's demo join token. */
function demoSiteOrPoolBearer(pool: string, site: string): string {
  try {
    return demoBearer(undefined, site);
  } catch {
    return demoBearer(pool);
  }
}

/** Every machine's join, `concurrency` at once; a dropped connection counts as "other". */
async function sendRound(options: RackOptions, bearer: string, machines: SavedMachine[]): Promise<{ tally: RoundTally; seconds: number }> {
  const tally = new RoundTally();
  const limit = pLimit(options.concurrency);
  const started = performance.now();
  await Promise.all(
    machines.map((machine) =>
      limit(async () => {
        try {
          const response = await fetch(new URL("/api/compute/nodes/join", options.url), {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
            body: JSON.stringify(machine.body),
          });
          tally.count(response.status, (await response.json().catch(() => ({}))) as Parameters<RoundTally["count"]>[1]);
        } catch {
          tally.count(0, { error: { code: "NO_ANSWER" } });
        }
      }),
    ),
  );
  return { tally, seconds: (performance.now() - started) / 1000 };
}
