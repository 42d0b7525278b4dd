import "server-only";
import type { MachineFacts } from "../join-requests/create-join-request";

/**
 * What a join records of the machine (SPEC G2): the EK hash only when this
 * join proved that EK by credential activation. An EK only presented (without
 * an AK, or never activated) says nothing a person could trust, so it is not
 * recorded as the machine's: the request or node reads "no TPM".
 */
export function recordedMachine(presented: Omit<MachineFacts, "tpmEkProven">, proven: boolean): MachineFacts {
  if (proven && presented.tpmEkSha256) return { ...presented, tpmEkProven: true };
  return { ...presented, tpmEkSha256: null, tpmEkProven: false };
}
