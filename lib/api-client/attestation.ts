import type { z } from "zod";
import type {
  addTpmAllowedKeyInput, removeDiscoveredMachinesInput, removeTpmAllowedKeyInput, upsertDiscoveredMachinesInput,
} from "@/lib/validations/attestation";
import { callMethod } from "./call-method";

// Typed calls of the attestors' knowledge methods (SPEC E3).

export interface UpsertDiscoveredMachinesResponse {
  created: number;
  updated: number;
  unchanged: number;
  /** present on a dry run: nothing was written */
  dryRun?: true;
}

export interface TpmAllowedKeyJson {
  ekSha256: string;
  note: string;
  createdAt: string;
}

export const upsertDiscoveredMachines = (input: z.input<typeof upsertDiscoveredMachinesInput>) =>
  callMethod<UpsertDiscoveredMachinesResponse>("discovery/upsert", input);

export const addTpmAllowedKey = (input: z.input<typeof addTpmAllowedKeyInput>) => callMethod<TpmAllowedKeyJson>("tpmAllowList/add", input);

export const removeDiscoveredMachines = (input: z.input<typeof removeDiscoveredMachinesInput>) =>
  callMethod<{ removed: number }>("discovery/remove", input);

export const removeTpmAllowedKey = (input: z.input<typeof removeTpmAllowedKeyInput>) => callMethod<{ removed: number }>("tpmAllowList/remove", input);
