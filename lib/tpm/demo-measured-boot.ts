import { createHash } from "node:crypto";
import type { BootState } from "@/lib/pools/boot-states";
import type { SoftwareTpm } from "./software-tpm";

// The demo machines' measured boot (SPEC I3's demo, F5's software TPM): what
// the seed's gpu-a nodes and the simulator's TPM machines extend into PCRs 0
// and 7 as they "boot", and the boot state those values make. Demo only.

const digest = (what: string) => createHash("sha256").update(what).digest();
/** What the demo firmware and bootloaders measure (TPM2_PCR_Extend digests). */
const FIRMWARE = digest("demo firmware 2026.10");
const BOOTLOADER = digest("demo bootloader 2026.12 (signed)");
const TAMPERED_BOOTLOADER = digest("demo bootloader 2026.12 (patched, unsigned)");
const extended = (...digests: Buffer[]) =>
  digests.reduce((pcr, next) => createHash("sha256").update(pcr).update(next).digest(), Buffer.alloc(32)).toString("hex");

/** The values a demo machine that booted the signed bootloader quotes. */
export const DEMO_GOLDEN_BOOT_STATE: BootState = {
  name: "gpu-a golden 2026-12",
  pcrs: { "0": extended(FIRMWARE), "7": extended(BOOTLOADER) },
};

/** Boots a fresh software TPM: the demo firmware, then the signed bootloader or, tampered, a patched one no state knows. */
export function bootDemoMachine(tpm: SoftwareTpm, { tampered = false } = {}): SoftwareTpm {
  tpm.extendPcr(0, FIRMWARE);
  tpm.extendPcr(7, tampered ? TAMPERED_BOOTLOADER : BOOTLOADER);
  return tpm;
}

/** The second bootloader of a machine tampered with after it booted: PCR 7 leaves the golden value. */
export function tamperDemoMachine(tpm: SoftwareTpm): void {
  tpm.extendPcr(7, TAMPERED_BOOTLOADER);
}
