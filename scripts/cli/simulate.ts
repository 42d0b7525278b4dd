// npm run simulate -- <scenario> [--pool gpu-a | --site fra1] [--url http://localhost:3000]
//                     [--token bcjt_…|bcse_…] [--state-dir .data/simulator] [--name <name>]
// npm run simulate -- retry <name> [--url …] [--token …] [--state-dir …]
// npm run simulate -- reimage <name> [--url …] [--token …] [--state-dir …]
// npm run simulate -- report <name> [--change driver|gpu-removed|gpu-replaced|disk-added] [--url …] [--state-dir …]
// npm run simulate -- renew <name> [--url …] [--state-dir …]
// npm run simulate -- rack [--count 200] [--pool gpu-b] [--concurrency 16] [--rack 07] [--once] [--site …] [--token …] [--url …]
// npm run simulate -- attest <name> [--tamper] [--every <seconds>] [--times <n>] [--url …] [--state-dir …]
//
// A node daemon's join, for demos and manual testing: makes a real key pair
// and CSR, calls POST /api/compute/nodes/join as a machine would, prints what
// happened, and keeps key + CSR under the state directory so `retry` sends
// the same CSR again (to see the same 202, an approval being consumed, …).
// Once admitted, `report` and `renew` speak as the node (its key signs a JWT).
// The TPM scenarios play a software TPM (SPEC F5): a join into a TPM pool is
// answered with a credential challenge, which it activates, then joins again
// with the recovered secret (F1); both steps are printed.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { x509 } from "@/server/pki/x509";
import { makeKeyAndCsr } from "@/server/pki/make-csr";
import type { JoinNodeResult } from "@/lib/api/responses/nodes";
import { INVENTORY_CHANGES, type InventoryChange } from "@/lib/inventory/gpu-server-inventory";
import { defaultPool, scenarioMachine, SCENARIOS, type Scenario } from "./simulator/scenarios";
import { SoftwareTpm, type SoftwareTpmState } from "@/lib/tpm/software-tpm";
import { renewCommand, reportCommand, saveNode } from "./simulator/node-commands";
import { demoBearer, saveMachine, type SavedMachine } from "./simulator/saved-machine";
import { rackCommand } from "./simulator/rack";
import { attestCommand } from "./simulator/attest-command";

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
async function sendJoin(url: string, bearer: string, body: unknown): Promise<{ response: Response; body: JoinAnswer }> {
  const response = await fetch(new URL("/api/compute/nodes/join", url), {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
    body: JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => ({}))) as JoinAnswer;
  console.log(`HTTP ${response.status}`);
  return { response, body: answer };
}

async function main(argv: string[]): Promise<number> {
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
    return rackCommand({
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
    if (command === "renew") return renewCommand({ url: values.url!, dir, name: retryName, machine });
    if (command === "attest") {
      const everySeconds = Number(values.every);
      const times = Number(values.times);
      if (!(everySeconds > 0) || !Number.isInteger(times) || times < 1) {
        console.error("--every must be a positive number of seconds and --times a whole number from 1");
        return 2;
      }
      return attestCommand({ url: values.url!, dir, name: retryName, tamper: values.tamper!, everySeconds, times });
    }
    if (values.change && !INVENTORY_CHANGES.includes(values.change as InventoryChange)) {
      console.error(`--change must be one of ${INVENTORY_CHANGES.join(", ")}`);
      return 2;
    }
    return reportCommand({ url: values.url!, dir, name: retryName, machine, change: values.change as InventoryChange | undefined });
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
      console.log(`re-imaged ${retryName} (${saved.scenario}): the same hardware with a new key and CSR`);
    } else {
      console.log(`retrying ${retryName} (${saved.scenario}) with its saved key and CSR`);
    }
  } else if (SCENARIOS.includes(command as Scenario) && !(values.pool && values.site)) {
    const scenario = command as Scenario;
    const pool = values.site ? undefined : (values.pool ?? defaultPool(scenario));
    dir = path.join(stateDir, values.name ?? scenario);
    saved = await newMachine(scenario, pool, values.site, dir);
  } else {
    console.error(USAGE);
    return 2;
  }

  const bearer = values.token ?? demoBearer(saved.pool, saved.site);
  console.log(`${saved.body.hostname} joins ${saved.pool ? `pool ${saved.pool}` : `site ${saved.site}`} at ${values.url}`);
  let { response, body } = await sendJoin(values.url!, bearer, saved.body);
  if (body.status === "challenge" && saved.body.tpm) {
    // SPEC F1: only the TPM holding this EK and AK recovers the secret
    console.log(`challenge: ${body.challengeId}, expires ${body.expiresAt} (TPM2_MakeCredential for this EK and AK)`);
    const state = JSON.parse(await readFile(path.join(dir, TPM_STATE_FILE), "utf8")) as SoftwareTpmState;
    const secret = new SoftwareTpm(state).activateCredential(
      Buffer.from(body.credentialBlob, "base64"),
      Buffer.from(body.encryptedSecret, "base64"),
    );
    console.log("activated the credential with the software TPM; joining again with the recovered secret");
    const activation = { challengeId: body.challengeId, secret: secret.toString("base64") };
    ({ response, body } = await sendJoin(values.url!, bearer, { ...saved.body, tpm: { ...saved.body.tpm, activation } }));
  }
  if (body.status === "pending") {
    console.log(`pending: request ${body.requestId}, expires ${body.expiresAt}, reasons: ${body.reasons.join(", ")}`);
    console.log(`approve it in the console (or joinRequests/approve), then: npm run simulate -- retry ${path.basename(dir)}`);
  } else if (body.status === "admitted") {
    const certificate = new x509.X509Certificate(body.certificate);
    await writeFile(path.join(dir, "certificate.pem"), body.certificate);
    await writeFile(path.join(dir, "ca.pem"), body.caCertificate);
    await saveNode(dir, { nodeId: body.nodeId });
    console.log(`admitted: node ${body.nodeId}`);
    console.log(
      `certificate: subject ${certificate.subject}, issuer ${certificate.issuer}, valid until ${certificate.notAfter.toISOString()}`,
    );
    console.log(`saved certificate.pem, ca.pem and node.json in ${dir}; now: npm run simulate -- report ${path.basename(dir)}`);
  } else if (body.status !== "challenge") {
    console.log(`${body.error?.code ?? "error"}: ${body.error?.message ?? JSON.stringify(body)}`);
  }
  console.log(`state: ${dir}`);
  return response.ok ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`simulate failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
