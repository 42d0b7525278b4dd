import type { MachineJson } from "@/lib/join-requests/join-request-json";

/** Whether the machine's endorsement key was proven at its join (SPEC F1, G2), in words. */
export function tpmProofWords(machine: Pick<MachineJson, "tpmEkSha256" | "tpmEkProven">): string {
  if (machine.tpmEkProven) return "Endorsement key proven by TPM credential activation";
  return machine.tpmEkSha256 ? "Endorsement key presented but not proven" : "No TPM";
}

export function TpmProof({ machine }: { machine: Pick<MachineJson, "tpmEkSha256" | "tpmEkProven"> }) {
  return <span data-testid="tpm-proof">{tpmProofWords(machine)}</span>;
}
