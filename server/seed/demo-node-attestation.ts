import "server-only";
import type { Db } from "../db/client";
import type { SoftwareTpm } from "@/lib/tpm/software-tpm";
import { readStoredBootStates } from "@/lib/pools/boot-states";
import { bootDemoMachine, DEMO_GOLDEN_BOOT_STATE, tamperDemoMachine } from "@/lib/tpm/demo-measured-boot";
import { issueAttestationChallenge } from "../nodes/issue-attestation-challenge";
import { recordNodeAttestation } from "../nodes/record-node-attestation";
import { demoSoftwareTpm } from "./join-as-machine";

// SPEC I3's demo: gpu-a's nodes attest with the software TPM they joined with
// (F5), through nodes/attest's own functions. gpu-a-01 booted the golden
// state (trusted); gpu-a-02 did too a day ago, then a bootloader no state
// knows (untrusted, with its compute.node.attestation-failed event).

const DAY = 86_400_000;
const POOL = "gpu-a";
const tpms = new Map<string, SoftwareTpm>();

/** The software TPM a demo node of gpu-a joins with, kept so that it can quote after its admission. */
export function demoNodeTpm(hostname: string): SoftwareTpm {
  const tpm = bootDemoMachine(demoSoftwareTpm("allowed"));
  tpms.set(hostname, tpm);
  return tpm;
}

/** Attests the demo nodes admitted in this run (a node admitted by an earlier run keeps what it recorded then). */
export async function seedDemoNodeAttestation(db: Db, now: Date): Promise<void> {
  if (tpms.size === 0) return;
  const pool = await db.pool.findUniqueOrThrow({ where: { id: POOL }, select: { bootStates: true } });
  if (readStoredBootStates(pool.bootStates).length === 0)
    await db.pool.update({ where: { id: POOL }, data: { bootStates: [DEMO_GOLDEN_BOOT_STATE] } });

  await attestAs(db, "gpu-a-01.fra1.acme.test", now);
  const dayAgo = new Date(now.getTime() - DAY);
  if (await attestAs(db, "gpu-a-02.fra1.acme.test", dayAgo)) {
    tamperDemoMachine(tpms.get("gpu-a-02.fra1.acme.test")!);
    await attestAs(db, "gpu-a-02.fra1.acme.test", now);
  }
  tpms.clear();
}

async function attestAs(db: Db, hostname: string, now: Date): Promise<boolean> {
  const tpm = tpms.get(hostname);
  const node = await db.node.findFirst({
    where: { tenantId: "acme", hostname, state: "active", tpmAkPublic: { not: null } },
    select: { id: true, tenantId: true, siteId: true, poolId: true },
  });
  if (!tpm || !node) return false;
  const { nonce, pcrSelection } = await issueAttestationChallenge({ db, node, now });
  const { attest, signature, pcrs } = tpm.quote({ nonce: Buffer.from(nonce, "base64"), pcrSelection });
  await recordNodeAttestation({ db, node, quote: { attest: Buffer.from(attest), signature: Buffer.from(signature), pcrs }, now });
  return true;
}
