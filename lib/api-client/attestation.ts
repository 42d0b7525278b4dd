import type { z } from "zod";
import type {
  addTpmAllowedKeyInput,
  removeDiscoveredMachinesInput,
  removeTpmAllowedKeyInput,
  tpmTrustedRootInput,
  upsertDiscoveredMachinesInput,
} from "@/lib/validations/attestation";
import type { UpsertDiscoveryResponse } from "@/lib/api/responses/attestation";
import type { TpmAllowedKeyJson, TpmTrustedRootJson } from "@/lib/attestation/attestation-json";
import { callMethod } from "./call-method";

// Typed calls of the attestors' knowledge methods (SPEC E3).

export const upsertDiscoveredMachines = (input: z.input<typeof upsertDiscoveredMachinesInput>) =>
  callMethod<UpsertDiscoveryResponse>("discovery/upsert", input);

export const addTpmAllowedKey = (input: z.input<typeof addTpmAllowedKeyInput>) => callMethod<TpmAllowedKeyJson>("tpmAllowList/add", input);

export const removeDiscoveredMachines = (input: z.input<typeof removeDiscoveredMachinesInput>) =>
  callMethod<{ removed: number }>("discovery/remove", input);

export const removeTpmAllowedKey = (input: z.input<typeof removeTpmAllowedKeyInput>) =>
  callMethod<{ removed: number }>("tpmAllowList/remove", input);

/** SPEC I1: a manufacturer root into, or out of, the tenant's TPM trust store (one PEM certificate each way). */
export const addTpmTrustedRoot = (input: z.input<typeof tpmTrustedRootInput>) => callMethod<TpmTrustedRootJson>("tpmTrustStore/add", input);

export const removeTpmTrustedRoot = (input: z.input<typeof tpmTrustedRootInput>) =>
  callMethod<{ removed: number }>("tpmTrustStore/remove", input);
