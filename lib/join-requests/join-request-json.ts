import { z } from "zod";
import { JOIN_REQUEST_STATES } from "@/lib/validations/join-requests";
import { sha256Hex, timestamp } from "@/lib/wire/fields";
import { approvalsField, approvalsRequiredField } from "./approval-json";

// The wire shape of a join request (SPEC B1), shared by server and console,
// declared once as a schema: the OpenAPI document and the API tests read it too.

export const JOIN_REQUEST_REASONS = [
  "placeholder-hardware-id",
  "unknown-to-discovery",
  "tpm-ek-not-allowed",
  // SPEC F2, F3: the machine or its hostname belongs to an active node already
  "machine-already-joined",
  "hostname-in-use",
  // SPEC I2: the TPM's quote matched none of the pool's known boot states (the pool requires one)
  "boot-state-unknown",
] as const;
export type JoinRequestReason = (typeof JOIN_REQUEST_REASONS)[number];

/** The machine as it reported itself at the join (SPEC B1); a node shows the same facts (D1). */
export const machineJson = z.strictObject({
  hostname: z.string(),
  systemUuid: z.string(),
  serialNumber: z.string(),
  macAddresses: z.array(z.string()),
  tpmEkSha256: sha256Hex
    .nullable()
    .meta({ description: "SHA-256 of the endorsement key's DER SPKI, recorded only when proven (legacy rows may hold an unproven one)" }),
  tpmEkProven: z.boolean().meta({ description: "the EK was proven by TPM credential activation at the join (SPEC F1, G2)" }),
});
export type MachineJson = z.infer<typeof machineJson>;

export function toMachineJson(row: MachineJson): MachineJson {
  return {
    hostname: row.hostname,
    systemUuid: row.systemUuid,
    serialNumber: row.serialNumber,
    macAddresses: row.macAddresses,
    tpmEkSha256: row.tpmEkSha256,
    tpmEkProven: row.tpmEkProven,
  };
}

export const EK_CERTIFICATE_FAILURES = ["unknown-issuer", "bad-signature", "expired", "not-yet-valid", "invalid-chain"] as const;

/** SPEC I1: what the join's EK certificate said, as the request shows it. */
export const ekCertificateJson = z
  .strictObject({
    issuer: z.string(),
    serial: z.string().meta({ description: "the certificate's serial number, lowercase hex" }),
    failure: z
      .enum(EK_CERTIFICATE_FAILURES)
      .nullable()
      .meta({ description: "why it did not chain to a root of the tenant's TPM trust store; null: it chained" }),
    detail: z.string().nullable(),
  })
  .nullable()
  .meta({ description: "the join's tpm.ekCertificate, when the tpm attestor judged one (SPEC I1); null: none" });
export type EkCertificateJson = z.infer<typeof ekCertificateJson>;

/** SPEC I2: what the join's verified TPM quote attested. */
export const bootMeasurementJson = z
  .strictObject({
    pcrs: z.record(z.string(), z.string()).meta({ description: "PCR index → SHA-256 value in lowercase hex, as the TPM quoted them" }),
    bootState: z.string().nullable().meta({ description: "the pool's boot state the values matched; null: none (boot-state-unknown)" }),
  })
  .nullable()
  .meta({ description: "the PCR values the join's TPM quote attested, in a pool with known boot states (SPEC I2); null: none quoted" });
export type BootMeasurementJson = z.infer<typeof bootMeasurementJson>;

export const joinRequestJson = z.strictObject({
  id: z.string().startsWith("jreq_"),
  tenantId: z.string(),
  siteId: z.string(),
  poolId: z.string().nullable().meta({ description: "null while it is an unclaimed site request" }),
  state: z.enum(JOIN_REQUEST_STATES).meta({ description: "the effective state: pending or approved past expiresAt reads as expired" }),
  reasons: z.array(z.enum(JOIN_REQUEST_REASONS)),
  machine: machineJson,
  csrSha256: sha256Hex,
  createdAt: timestamp,
  expiresAt: timestamp,
  decidedAt: timestamp.nullable(),
  decidedBy: z.string().nullable(),
  reason: z.string().nullable(),
  consumedAt: timestamp.nullable(),
  approvalsRequired: approvalsRequiredField,
  approvals: approvalsField,
  ekCertificate: ekCertificateJson,
  bootMeasurement: bootMeasurementJson,
});
export type JoinRequestJson = z.infer<typeof joinRequestJson>;
