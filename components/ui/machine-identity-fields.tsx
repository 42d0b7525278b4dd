import type { MachineJson } from "@/lib/join-requests/join-request-json";
import { TpmProof } from "./tpm-proof";

type MachineIdentity = Pick<MachineJson, "serialNumber" | "macAddresses" | "tpmEkSha256" | "tpmEkProven">;

/**
 * A machine's identity in a detail page's field list (a request's or a node's
 * page): serial number, MACs, TPM endorsement key and whether it was proven.
 */
export function MachineIdentityFields({ machine }: { machine: MachineIdentity }) {
  return (
    <>
      <dt>Serial number</dt>
      <dd className="mono">{machine.serialNumber || "—"}</dd>
      <dt>MAC addresses</dt>
      <dd className="mono">{machine.macAddresses.join(", ") || "—"}</dd>
      <dt>TPM EK SHA-256</dt>
      <dd className="mono">{machine.tpmEkSha256 ?? "no TPM presented"}</dd>
      <dt>TPM proof</dt>
      <dd>
        <TpmProof machine={machine} />
      </dd>
    </>
  );
}
