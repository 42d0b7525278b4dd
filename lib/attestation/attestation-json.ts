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

/** A root certificate in a tenant's TPM trust store (SPEC I1). */
export const tpmTrustedRootJson = z.strictObject({
  sha256: sha256Hex.meta({ description: "SHA-256 fingerprint of the certificate's DER" }),
  subject: z.string(),
  notBefore: timestamp,
  notAfter: timestamp,
  createdAt: timestamp,
});
export type TpmTrustedRootJson = z.infer<typeof tpmTrustedRootJson>;
