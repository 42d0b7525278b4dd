import { z } from "zod";
import { boundedInt, codePointLength, optional, poolIdField, REASON_PATTERN, siteIdField, tenantIdField, withDefault } from "./fields";
import { EK_MAX_CHARACTERS, macAddressField } from "./node-join";

// The attestors' knowledge (SPEC E3): a site's discovered machines and a
// tenant's TPM allow-list. The CLI and (later) the methods parse with these.

export const MAX_MACHINES_PER_CHANGE = 1000;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SHA256_HEX_PATTERN = /^[0-9a-f]{64}$/;

/** A system UUID as firmware prints it, in either case; stored lowercase. */
export const systemUuidField = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .transform((value) => value.trim().toLowerCase())
  .refine((value) => UUID_PATTERN.test(value), "must be a UUID like 11111111-1111-4111-8111-111111111111");

export const discoveredMachineInput = z.strictObject({
  systemUuid: systemUuidField,
  macAddresses: z
    .array(macAddressField, { error: "must be an array of MAC addresses" })
    .min(1, { error: "must hold 1 to 16 MAC addresses" })
    .max(16, { error: "must hold 1 to 16 MAC addresses" }),
  // a pool of the same site, or null: the machine is known, not assigned
  assignedPoolId: poolIdField.nullable(),
});

const uniqueUuids = (uuids: string[]) => new Set(uuids).size === uuids.length;

export const upsertDiscoveredMachinesInput = z.strictObject({
  tenantId: tenantIdField,
  siteId: siteIdField,
  machines: z
    .array(discoveredMachineInput, { error: "must be an array of machines" })
    .min(1, { error: `must hold 1 to ${MAX_MACHINES_PER_CHANGE} machines` })
    .max(MAX_MACHINES_PER_CHANGE, { error: `must hold 1 to ${MAX_MACHINES_PER_CHANGE} machines` })
    .refine((machines) => uniqueUuids(machines.map((machine) => machine.systemUuid)), "must not name a system UUID twice"),
  // true: answer what would change, and change nothing (the console's import preview)
  dryRun: withDefault(z.boolean({ error: "must be true or false" }), false),
});

export const removeDiscoveredMachinesInput = z.strictObject({
  tenantId: tenantIdField,
  siteId: siteIdField,
  systemUuids: z
    .array(systemUuidField, { error: "must be an array of system UUIDs" })
    .min(1, { error: `must hold 1 to ${MAX_MACHINES_PER_CHANGE} system UUIDs` })
    .max(MAX_MACHINES_PER_CHANGE, { error: `must hold 1 to ${MAX_MACHINES_PER_CHANGE} system UUIDs` }),
});

export const listDiscoveredMachinesInput = z.strictObject({
  tenantId: tenantIdField,
  siteId: siteIdField,
  // a prefix of a system UUID or of a MAC
  query: optional(
    z
      .string()
      .max(64, { error: "must be at most 64 characters" })
      .transform((value) => value.trim().toLowerCase()),
  ),
  limit: withDefault(boundedInt(1, 200), 100),
  // the last system UUID of the previous page
  cursor: optional(systemUuidField),
});

export const ekSha256Field = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .transform((value) => value.trim().toLowerCase())
  .refine((value) => SHA256_HEX_PATTERN.test(value), "must be 64 hexadecimal digits (SHA-256)");

const noteField = z
  .string({ error: "must be a string" })
  .refine((value) => codePointLength(value) <= 256, "must be at most 256 characters")
  .refine((value) => REASON_PATTERN.test(value), "must not contain control characters");

export const addTpmAllowedKeyInput = z
  .strictObject({
    tenantId: tenantIdField,
    ekPublicKey: optional(z.string().max(EK_MAX_CHARACTERS, { error: `must be at most ${EK_MAX_CHARACTERS} characters` })),
    ekSha256: optional(ekSha256Field),
    note: withDefault(noteField, ""),
  })
  .refine((input) => (input.ekPublicKey === undefined) !== (input.ekSha256 === undefined), {
    path: ["ekPublicKey"],
    message: "give exactly one of ekPublicKey (PEM) and ekSha256",
  });

export const removeTpmAllowedKeyInput = z.strictObject({ tenantId: tenantIdField, ekSha256: ekSha256Field });

export const listTpmAllowedKeysInput = z.strictObject({
  tenantId: tenantIdField,
  limit: withDefault(boundedInt(1, 200), 100),
  cursor: optional(ekSha256Field),
});

export type DiscoveredMachineInput = z.output<typeof discoveredMachineInput>;

// SPEC I1: the tenant's TPM trust store. What the certificate holds is read
// where it is stored (readTrustAnchor), so a bad one is a 400 naming `certificate`.
export const TRUST_ANCHOR_MAX_CHARACTERS = 16 * 1024;

export const tpmTrustedRootInput = z.strictObject({
  tenantId: tenantIdField,
  certificate: z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a PEM CERTIFICATE") })
    .max(TRUST_ANCHOR_MAX_CHARACTERS, { error: `must be at most ${TRUST_ANCHOR_MAX_CHARACTERS} characters` }),
});

export const listTpmTrustedRootsInput = z.strictObject({
  tenantId: tenantIdField,
  limit: withDefault(boundedInt(1, 200), 100),
  // the fingerprint of the previous page's last root
  cursor: optional(ekSha256Field),
});
