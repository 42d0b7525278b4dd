// A simulated machine's state directory, shared by the single-machine
// scenarios and the rack: key.pem (0600), csr.pem and machine.json (what
// `retry` sends again), never the credential itself.
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { DEMO_ENROLLMENT_KEYS, DEMO_JOIN_TOKENS } from "@/server/seed/demo-data";
import type { Scenario } from "./scenarios";

/** What is kept per simulated machine (never the credential: pass --token again if it was not a demo one). */
export interface SavedMachine {
  scenario: Scenario;
  pool?: string;
  site?: string;
  body: { csr: string; hostname: string; hardware: unknown; tpm: { ekPublicKey: string; akPublic: string } | null };
}

/** The demo credential a join uses: the pool's join token, else the site's enrollment key (SPEC Part C). */
export function demoBearer(pool?: string, site?: string): string {
  const token = pool ? DEMO_JOIN_TOKENS.find((candidate) => candidate.poolId === pool) : undefined;
  if (token) return `bcjt_${token.id}.${token.secret}`;
  const key = site ? DEMO_ENROLLMENT_KEYS.find((candidate) => candidate.siteId === site) : undefined;
  if (key) return `bcse_${key.id}.${key.secret}`;
  throw new Error(`no demo credential for ${pool ? `pool ${pool}` : `site ${site}`}: pass --token`);
}

/** Writes the machine's key (owner-only), CSR and machine.json into `dir`. */
export async function saveMachine(dir: string, saved: SavedMachine, privateKeyPem: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(path.join(dir, "key.pem"), privateKeyPem, { mode: 0o600 });
  await chmod(path.join(dir, "key.pem"), 0o600);
  await writeFile(path.join(dir, "csr.pem"), saved.body.csr);
  await writeFile(path.join(dir, "machine.json"), `${JSON.stringify(saved, null, 2)}\n`);
}
