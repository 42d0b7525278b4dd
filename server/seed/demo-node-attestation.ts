import "server-only";
import { createHash } from "node:crypto";
import type { Db } from "../db/client";
import type { SoftwareTpm } from "@/lib/tpm/software-tpm";
import { readStoredBootStates, type BootState } from "@/lib/pools/boot-states";
import { issueAttestationChallenge } from "../nodes/issue-attestation-challenge";
import { recordNodeAttestation } from "../nodes/record-node-attestation";
import { demoSoftwareTpm } from "./join-as-machine";

// SPEC I3's demo: gpu-a's nodes attest with the software TPM they joined with
// (F5), through nodes/attest's own functions. gpu-a-01 booted the golden
// state (trusted); gpu-a-02 did too a day ago, then a bootloader no state
// knows (untrusted, with its compute.node.attestation-failed event).

const DAY = 86_400_000;
const POOL = "gpu-a";
const digest = (what: string) => createHash("sha256").update(what).digest();
/** What the demo firmware and bootloaders measure (TPM2_PCR_Extend digests). */
const FIRMWARE = digest("demo firmware 2026.10");
const BOOTLOADER = digest("demo bootloader 2026.12 (signed)");
const TAMPERED_BOOTLOADER = digest("demo bootloader 2026.12 (patched, unsigned)");
const extended = (...digests: Buffer[]) =>
  digests.reduce((pcr, next) => createHash("sha256").update(pcr).update(next).digest(), Buffer.alloc(32)).toString("hex");

/** The state gpu-a's boot states get when they have none (exported so other demo data can name the same values). */
export const DEMO_GOLDEN_BOOT_STATE: BootState = {
  name: "gpu-a golden 2026-12",
  pcrs: { "0": extended(FIRMWARE), "7": extended(BOOTLOADER) },
};

const tpms = new Map<string, SoftwareTpm>();

/**
 * A demo machine's measured boot on its (fresh) software TPM: the demo
 * firmware, then the signed bootloader (DEMO_GOLDEN_BOOT_STATE) or, tampered,
 * a patched one no state knows. The simulator boots its machines so too.
 */
export function bootDemoMachine(tpm: SoftwareTpm, { tampered = false } = {}): SoftwareTpm {
  tpm.extendPcr(0, FIRMWARE);
  tpm.extendPcr(7, tampered ? TAMPERED_BOOTLOADER : BOOTLOADER);
  return tpm;
}

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
    tpms.get("gpu-a-02.fra1.acme.test")!.extendPcr(7, TAMPERED_BOOTLOADER);
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
