import { randomBytes, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { makeEndorsementKeyPem } from "@/server/pki/make-csr";

// What each simulated machine reports. "Known" machines carry the identifiers
// of acme/fra1's demo inventory (SPEC Part C): …111 for a pool join, …118
// (assigned to gpu-b) for a site-enrollment-key join.

export const SCENARIOS = ["known", "unknown", "placeholder", "tpm-allowed", "tpm-unknown"] as const;
export type Scenario = (typeof SCENARIOS)[number];

export interface SimulatedHardware {
  systemUuid: string;
  serialNumber: string;
  macAddresses: string[];
}

const inventoryEntry = (n: number): SimulatedHardware => ({
  systemUuid: `11111111-1111-4111-8111-11111111111${n}`,
  serialNumber: `SIM-${randomBytes(3).toString("hex").toUpperCase()}`,
  macAddresses: [`52:54:00:11:11:1${n}`],
});

const unknownHardware = (): SimulatedHardware => {
  const mac = randomBytes(3).toString("hex").match(/../g)!.join(":");
  return { systemUuid: randomUUID(), serialNumber: `SIM-${randomBytes(3).toString("hex").toUpperCase()}`, macAddresses: [`02:53:49:${mac}`] };
};

const ALLOWED_EK_FILE = new URL("../../../fixtures/tpm-ek-allowed.pem", import.meta.url);

/** The scenario's hardware and the endorsement key it presents (null: no TPM). */
export async function scenarioMachine(scenario: Scenario, viaSiteKey: boolean) {
  const known = inventoryEntry(viaSiteKey ? 8 : 1);
  switch (scenario) {
    case "known":
      return { hardware: known, ekPublicKey: null };
    case "unknown":
      return { hardware: unknownHardware(), ekPublicKey: null };
    case "placeholder":
      return { hardware: { ...known, serialNumber: "To Be Filled By O.E.M." }, ekPublicKey: null };
    case "tpm-allowed":
      return { hardware: known, ekPublicKey: await readFile(ALLOWED_EK_FILE, "utf8") };
    case "tpm-unknown":
      return { hardware: known, ekPublicKey: await makeEndorsementKeyPem() };
  }
}

/** The pool a scenario joins by default: the TPM scenarios need gpu-a, which requires TPM. */
export const defaultPool = (scenario: Scenario) => (scenario.startsWith("tpm-") ? "gpu-a" : "gpu-b");
