import { z } from "zod";
import { discoveredMachineJson, tpmAllowedKeyJson, tpmTrustedRootJson } from "@/lib/attestation/attestation-json";
import { nextCursor } from "@/lib/wire/fields";

// What the discovery and tpmAllowList methods answer (SPEC E3); tpmAllowList/add returns the key itself.
export const listDiscoveryResponse = z.strictObject({ machines: z.array(discoveredMachineJson), nextCursor });
export const upsertDiscoveryResponse = z.strictObject({
  created: z.int(),
  updated: z.int(),
  unchanged: z.int(),
  dryRun: z.literal(true).optional().meta({ description: "present on a dry run: nothing was written" }),
});
export type UpsertDiscoveryResponse = z.infer<typeof upsertDiscoveryResponse>;
export const removedResponse = z.strictObject({ removed: z.int() });
export const listTpmAllowListResponse = z.strictObject({ keys: z.array(tpmAllowedKeyJson), nextCursor });
export const listTpmTrustStoreResponse = z.strictObject({ roots: z.array(tpmTrustedRootJson), nextCursor });
