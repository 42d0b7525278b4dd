import type { z } from "zod";
import type { addTpmAllowedKeyInput, upsertDiscoveredMachinesInput } from "@/lib/validations/attestation";
import { callMethod } from "./call-method";

// Typed calls of the attestors' knowledge methods (SPEC E3).

export interface UpsertDiscoveredMachinesResponse {
  created: number;
  updated: number;
  unchanged: number;
}

export interface TpmAllowedKeyJson {
  ekSha256: string;
  note: string;
  createdAt: string;
}

export const upsertDiscoveredMachines = (input: z.input<typeof upsertDiscoveredMachinesInput>) =>
  callMethod<UpsertDiscoveredMachinesResponse>("discovery/upsert", input);

export const addTpmAllowedKey = (input: z.input<typeof addTpmAllowedKeyInput>) => callMethod<TpmAllowedKeyJson>("tpmAllowList/add", input);
