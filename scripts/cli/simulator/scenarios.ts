import { randomBytes, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { SoftwareTpm } from "@/lib/tpm/software-tpm";

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

export const unknownHardware = (): SimulatedHardware => {
  const mac = randomBytes(3).toString("hex").match(/../g)!.join(":");
  return {
    systemUuid: randomUUID(),
    serialNumber: `SIM-${randomBytes(3).toString("hex").toUpperCase()}`,
    macAddresses: [`02:53:49:${mac}`],
  };
};

// SPEC F5: the demo-only EK pair whose private half is published; acme's
// allow-list holds its hash. The simulator plays a software TPM with it.
const DEMO_EK_KEY_FILE = new URL("../../../fixtures/tpm-ek-demo.key.pem", import.meta.url);

/** The scenario's hardware and its software TPM (null: no TPM). */
export async function scenarioMachine(
  scenario: Scenario,
  viaSiteKey: boolean,
): Promise<{ hardware: SimulatedHardware; tpm: SoftwareTpm | null }> {
  const known = inventoryEntry(viaSiteKey ? 8 : 1);
  switch (scenario) {
    case "known":
      return { hardware: known, tpm: null };
    case "unknown":
      return { hardware: unknownHardware(), tpm: null };
    case "placeholder":
      return { hardware: { ...known, serialNumber: "To Be Filled By O.E.M." }, tpm: null };
    case "tpm-allowed":
      return { hardware: known, tpm: new SoftwareTpm({ ekPrivateKeyPem: await readFile(DEMO_EK_KEY_FILE, "utf8") }) };
    case "tpm-unknown":
      return { hardware: known, tpm: SoftwareTpm.withFreshEk() };
  }
}

/** The pool a scenario joins by default: the TPM scenarios need gpu-a, which requires TPM. */
export const defaultPool = (scenario: Scenario) => (scenario.startsWith("tpm-") ? "gpu-a" : "gpu-b");
