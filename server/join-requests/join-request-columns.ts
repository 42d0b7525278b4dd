import "server-only";
import { Prisma, type JoinRequest } from "../db/generated/client";
import { APPROVALS_COLUMN } from "./approvals-column";
import { EK_CERTIFICATE_COLUMN } from "../attestation/tpm/ek-certificate-column";
import { BOOT_MEASUREMENT_COLUMN } from "../attestation/tpm/boot-measurement-column";

// The join_requests table's columns, for the raw statements that read and
// write it (the list, the transitions, the join's lookup): one list, so a
// column added to the model is added here once and the compiler names every
// statement that must change.

/** Each column by the name the Prisma model gives it. */
export const JOIN_REQUEST_COLUMN_OF = {
  id: "id",
  tenantId: "tenant_id",
  siteId: "site_id",
  poolId: "pool_id",
  state: "state",
  reasons: "reasons",
  hostname: "hostname",
  systemUuid: "system_uuid",
  serialNumber: "serial_number",
  macAddresses: "mac_addresses",
  tpmEkSha256: "tpm_ek_sha256",
  tpmEkProven: "tpm_ek_proven",
  csrSha256: "csr_sha256",
  createdAt: "created_at",
  expiresAt: "expires_at",
  decidedAt: "decided_at",
  decidedBy: "decided_by",
  reason: "reason",
  consumedAt: "consumed_at",
  joinTokenId: "join_token_id",
  enrollKeyId: "enroll_key_id",
  approvalsRequired: "approvals_required",
  rulesEvaluatedAt: "rules_evaluated_at",
} as const satisfies Record<keyof JoinRequest, string>;

/**
 * Every column, named as the Prisma model names it, so raw rows are
 * JoinRequests (the state enum read as text), and the request's approvals
 * (SPEC H1), EK certificate facts (SPEC I1) and boot measurement (SPEC I2) read with it.
 */
export const JOIN_REQUEST_COLUMNS = Prisma.raw(
  [
    ...Object.entries(JOIN_REQUEST_COLUMN_OF).map(([field, column]) =>
      field === "state" ? `${column}::text AS ${field}` : field === column ? column : `${column} AS "${field}"`,
    ),
    APPROVALS_COLUMN,
    EK_CERTIFICATE_COLUMN,
    BOOT_MEASUREMENT_COLUMN,
  ].join(", "),
);
