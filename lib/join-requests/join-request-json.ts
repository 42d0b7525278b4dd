import type { JoinRequestState } from "@/lib/validations/join-requests";

// The wire shape of a join request (SPEC B1), shared by server and console.

export const JOIN_REQUEST_REASONS = [
  "placeholder-hardware-id",
  "unknown-to-discovery",
  "tpm-ek-not-allowed",
  // SPEC F2, F3: the machine or its hostname belongs to an active node already
  "machine-already-joined",
  "hostname-in-use",
] as const;
export type JoinRequestReason = (typeof JOIN_REQUEST_REASONS)[number];

/** The machine as it reported itself at the join (SPEC B1); a node shows the same facts (D1). */
export interface MachineJson {
  hostname: string;
  systemUuid: string;
  serialNumber: string;
  macAddresses: string[];
  tpmEkSha256: string | null;
}

export function toMachineJson(row: MachineJson): MachineJson {
  return {
    hostname: row.hostname,
    systemUuid: row.systemUuid,
    serialNumber: row.serialNumber,
    macAddresses: row.macAddresses,
    tpmEkSha256: row.tpmEkSha256,
  };
}

export interface JoinRequestJson {
  id: string;
  tenantId: string;
  siteId: string;
  /** null while it is an unclaimed site request */
  poolId: string | null;
  /** the effective state: pending/approved past expiry read as expired */
  state: JoinRequestState;
  reasons: JoinRequestReason[];
  machine: MachineJson;
  csrSha256: string;
  createdAt: string;
  expiresAt: string;
  decidedAt: string | null;
  decidedBy: string | null;
  reason: string | null;
  consumedAt: string | null;
}
