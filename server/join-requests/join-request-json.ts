import "server-only";
import type { JoinRequest } from "../db/generated/client";
import { effectiveState } from "@/lib/join-requests/state-machine";
import { approvalsJson, type WithApprovals } from "./approvals-column";
import { ekCertificateJsonOf, type WithEkCertificate } from "../attestation/tpm/ek-certificate-column";
import { bootMeasurementJsonOf, type WithBootMeasurement } from "../attestation/tpm/boot-measurement-column";
import { toMachineJson, type JoinRequestJson, type JoinRequestReason } from "@/lib/join-requests/join-request-json";

/** A stored join request as every method returns it (SPEC B1). */
export function toJoinRequestJson(row: JoinRequest & WithApprovals & WithEkCertificate & WithBootMeasurement, now: Date): JoinRequestJson {
  return {
    id: row.id,
    tenantId: row.tenantId,
    siteId: row.siteId,
    poolId: row.poolId,
    state: effectiveState(row, now),
    reasons: row.reasons as JoinRequestReason[],
    machine: toMachineJson(row),
    csrSha256: row.csrSha256,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decidedBy: row.decidedBy,
    reason: row.reason,
    consumedAt: row.consumedAt?.toISOString() ?? null,
    approvalsRequired: row.approvalsRequired,
    approvals: approvalsJson(row),
    ekCertificate: ekCertificateJsonOf(row),
    bootMeasurement: bootMeasurementJsonOf(row),
  };
}
