import { z } from "zod";
import { sha256Hex, timestamp } from "@/lib/wire/fields";

// The attestors' knowledge as the E3 methods return it.

/** A machine of a site's discovery inventory. */
export const discoveredMachineJson = z.strictObject({
  systemUuid: z.string(),
  macAddresses: z.array(z.string()),
  assignedPoolId: z.string().nullable(),
  createdAt: timestamp,
});
export type DiscoveredMachineJson = z.infer<typeof discoveredMachineJson>;

/** An endorsement key on a tenant's TPM allow-list, by the SHA-256 of its DER SubjectPublicKeyInfo. */
export const tpmAllowedKeyJson = z.strictObject({ ekSha256: sha256Hex, note: z.string(), createdAt: timestamp });
export type TpmAllowedKeyJson = z.infer<typeof tpmAllowedKeyJson>;
