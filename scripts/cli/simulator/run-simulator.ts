// `npm run simulate`'s commands (scripts/cli/simulate.ts is the entry that runs them
// on the console): what each scenario sends and prints, to `out`.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { x509 } from "@/server/pki/x509";
import { makeKeyAndCsr } from "@/server/pki/make-csr";
import type { JoinNodeResult } from "@/lib/api/responses/nodes";
import { INVENTORY_CHANGES, type InventoryChange } from "@/lib/inventory/gpu-server-inventory";
import { defaultPool, scenarioMachine, SCENARIOS, type Scenario } from "./scenarios";
import { SoftwareTpm, type SoftwareTpmState } from "@/lib/tpm/software-tpm";
import { renewCommand, reportCommand, saveNode } from "./node-commands";
import { demoBearer, saveMachine, type SavedMachine } from "./saved-machine";
import { rackCommand } from "./rack";
import { attestCommand } from "./attest-command";
import type { SimulatorOutput } from "./output";

const USAGE = `Usage:
  npm run simulate -- <${SCENARIOS.join("|")}> [--pool <poolId> | --site <siteId>] [--url <base URL>] [--token <bcjt_… or bcse_…>] [--state-dir <dir>] [--name <name>]
  npm run simulate -- retry <name> [--url <base URL>] [--token <…>] [--state-dir <dir>]
  npm run simulate -- reimage <name> [--url <base URL>] [--token <…>] [--state-dir <dir>]   (same hardware, a new key and CSR)
  npm run simulate -- report <name> [--change <${INVENTORY_CHANGES.join("|")}>] [--url <base URL>] [--state-dir <dir>]   (as the admitted node)
  npm run simulate -- renew <name> [--url <base URL>] [--state-dir <dir>]   (a new key and certificate)
  npm run simulate -- rack [--count <1-10000, default 200>] [--pool <poolId, default gpu-b>] [--concurrency <default 16>] [--rack <07>] [--once] [--site <siteId>] [--domain <dns suffix>] [--token <…>] [--url <base URL>] [--state-dir <dir>]
      (a rack of new machines joining at once, then each retrying once: what the pool's rules decided)
  npm run simulate -- attest <name> [--tamper] [--every <seconds>] [--times <n>] [--url <base URL>] [--state-dir <dir>]   (a TPM node quotes its boot)`;

/** The software TPM's keys (EK and AK private halves), kept beside key.pem with the same care. */
const TPM_STATE_FILE = "tpm.json";

async function newMachine(scenario: Scenario, pool: string | undefined, site: string | undefined, dir: string): Promise<SavedMachine> {
  const { hardware, tpm } = await scenarioMachine(scenario, Boolean(site));
  const hostname = `sim-${scenario}-${Date.now().toString(36)}.${site ?? pool}.test`;
  const { privateKeyPem, csrPem } = await makeKeyAndCsr(hostname);
  const tpmBody = tpm ? { ekPublicKey: tpm.ekPublicKeyPem, akPublic: tpm.akPublic.toString("base64") } : null;
  const saved: SavedMachine = { scenario, pool, site, body: { csr: csrPem, hostname, hardware, tpm: tpmBody } };
  await saveMachine(dir, saved, privateKeyPem);
  if (tpm) await writeFile(path.join(dir, TPM_STATE_FILE), `${JSON.stringify(tpm.state)}\n`, { mode: 0o600 });
  return saved;
}

type JoinAnswer = JoinNodeResult | { status?: undefined; error?: { code: string; message: string } };

/** One POST /api/compute/nodes/join; prints the HTTP status. */
async function sendJoin(
  out: SimulatorOutput,
  url: string,
  bearer: string,
  body: unknown,
): Promise<{ response: Response; body: JoinAnswer }> {
  const response = await fetch(new URL("/api/compute/nodes/join", url), {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
    body: JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => ({}))) as JoinAnswer;
  out.log(`HTTP ${response.status}`);
  return { response, body: answer };
}

/** `npm run simulate -- …` with its lines written to `out`: the exit code, or a thrown error (simulatorFailure). */
export async function runSimulator(argv: string[], out: SimulatorOutput): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      pool: { type: "string" },
      site: { type: "string" },
      url: { type: "string", default: "http://localhost:3000" },
      token: { type: "string" },
      "state-dir": { type: "string", default: ".data/simulator" },
      name: { type: "string" },
      change: { type: "string" },
      count: { type: "string", default: "200" },
      concurrency: { type: "string", default: "16" },
      rack: { type: "string" },
      domain: { type: "string" },
      once: { type: "boolean", default: false },
      tamper: { type: "boolean", default: false },
      every: { type: "string", default: "60" },
      times: { type: "string", default: "1" },
    },
  });
  const [command, retryName] = positionals;
  const stateDir = values["state-dir"]!;
  if (command === "rack") {
    return rackCommand(out, {
      url: values.url!,
      pool: values.pool ?? defaultPool("unknown"),
      site: values.site,
      token: values.token,
      domain: values.domain,
      count: Number(values.count),
      concurrency: Number(values.concurrency),
      rack: values.rack,
      once: values.once!,
      stateDir,
    });
  }
  if ((command === "report" || command === "renew" || command === "attest") && retryName) {
    const dir = path.join(stateDir, retryName);
    const saved = JSON.parse(
      await readFile(path.join(dir, "machine.json"), "utf8").catch(() => {
        throw new Error(`no saved machine "${retryName}" in ${stateDir}: run a scenario first (or pass --state-dir)`);
      }),
    ) as SavedMachine;
    const machine = { hostname: saved.body.hostname, hardware: saved.body.hardware as { systemUuid: string; serialNumber: string } };
    if (command === "renew") return renewCommand(out, { url: values.url!, dir, name: retryName, machine });
    if (command === "attest") {
      const everySeconds = Number(values.every);
      const times = Number(values.times);
      if (!(everySeconds > 0) || !Number.isInteger(times) || times < 1) {
        out.error("--every must be a positive number of seconds and --times a whole number from 1");
        return 2;
      }
      return attestCommand(out, { url: values.url!, dir, name: retryName, tamper: values.tamper!, everySeconds, times });
    }
    if (values.change && !INVENTORY_CHANGES.includes(values.change as InventoryChange)) {
      out.error(`--change must be one of ${INVENTORY_CHANGES.join(", ")}`);
      return 2;
    }
    return reportCommand(out, { url: values.url!, dir, name: retryName, machine, change: values.change as InventoryChange | undefined });
  }
  let saved: SavedMachine;
  let dir: string;
  if ((command === "retry" || command === "reimage") && retryName) {
    dir = path.join(stateDir, retryName);
    const file = await readFile(path.join(dir, "machine.json"), "utf8").catch(() => {
      throw new Error(`no saved machine "${retryName}" in ${stateDir}: run a scenario first (or pass --state-dir)`);
    });
    saved = JSON.parse(file) as SavedMachine;
    if (command === "reimage") {
      // a re-imaged machine: the same hardware (UUID, MACs, TPM), a new key pair and so a new CSR
      const { privateKeyPem, csrPem } = await makeKeyAndCsr(saved.body.hostname);
      saved = { ...saved, body: { ...saved.body, csr: csrPem } };
      await writeFile(path.join(dir, "key.pem"), privateKeyPem, { mode: 0o600 });
      await writeFile(path.join(dir, "csr.pem"), csrPem);
      await writeFile(path.join(dir, "machine.json"), `${JSON.stringify(saved, null, 2)}\n`);
      out.log(`re-imaged ${retryName} (${saved.scenario}): the same hardware with a new key and CSR`);
    } else {
      out.log(`retrying ${retryName} (${saved.scenario}) with its saved key and CSR`);
    }
  } else if (SCENARIOS.includes(command as Scenario) && !(values.pool && values.site)) {
    const scenario = command as Scenario;
    const pool = values.site ? undefined : (values.pool ?? defaultPool(scenario));
    dir = path.join(stateDir, values.name ?? scenario);
    saved = await newMachine(scenario, pool, values.site, dir);
  } else {
    out.error(USAGE);
    return 2;
  }

  const bearer = values.token ?? demoBearer(saved.pool, saved.site);
  out.log(`${saved.body.hostname} joins ${saved.pool ? `pool ${saved.pool}` : `site ${saved.site}`} at ${values.url}`);
  let { response, body } = await sendJoin(out, values.url!, bearer, saved.body);
  if (body.status === "challenge" && saved.body.tpm) {
    // SPEC F1: only the TPM holding this EK and AK recovers the secret
    out.log(`challenge: ${body.challengeId}, expires ${body.expiresAt} (TPM2_MakeCredential for this EK and AK)`);
    const state = JSON.parse(await readFile(path.join(dir, TPM_STATE_FILE), "utf8")) as SoftwareTpmState;
    const secret = new SoftwareTpm(state).activateCredential(
      Buffer.from(body.credentialBlob, "base64"),
      Buffer.from(body.encryptedSecret, "base64"),
    );
    out.log("activated the credential with the software TPM; joining again with the recovered secret");
    const activation = { challengeId: body.challengeId, secret: secret.toString("base64") };
    ({ response, body } = await sendJoin(out, values.url!, bearer, { ...saved.body, tpm: { ...saved.body.tpm, activation } }));
  }
  if (body.status === "pending") {
    out.log(`pending: request ${body.requestId}, expires ${body.expiresAt}, reasons: ${body.reasons.join(", ")}`);
    out.log(`approve it in the console (or joinRequests/approve), then: npm run simulate -- retry ${path.basename(dir)}`);
  } else if (body.status === "admitted") {
    const certificate = new x509.X509Certificate(body.certificate);
    await writeFile(path.join(dir, "certificate.pem"), body.certificate);
    await writeFile(path.join(dir, "ca.pem"), body.caCertificate);
    await saveNode(dir, { nodeId: body.nodeId });
    out.log(`admitted: node ${body.nodeId}`);
    out.log(`certificate: subject ${certificate.subject}, issuer ${certificate.issuer}, valid until ${certificate.notAfter.toISOString()}`);
    out.log(`saved certificate.pem, ca.pem and node.json in ${dir}; now: npm run simulate -- report ${path.basename(dir)}`);
  } else if (body.status !== "challenge") {
    out.log(`${body.error?.code ?? "error"}: ${body.error?.message ?? JSON.stringify(body)}`);
  }
  out.log(`state: ${dir}`);
  return response.ok ? 0 : 1;
}

/** What `npm run simulate` prints for a run that threw, and its exit code. */
export function simulatorFailure(error: unknown): { line: string; code: number } {
  return { line: `simulate failed: ${error instanceof Error ? error.message : String(error)}`, code: 1 };
}
