import { toMachineJson, type MachineJson } from "@/lib/join-requests/join-request-json";

// The wire shape of a node (SPEC D1), shared by server and console.

export const NODE_STATES = ["active", "revoked"] as const;
export type NodeState = (typeof NODE_STATES)[number];

export interface NodeJson {
  id: string;
  tenantId: string;
  siteId: string;
  poolId: string;
  hostname: string;
  machine: MachineJson;
  /** the consumed request; null when admitted at once */
  joinRequestId: string | null;
  joinedAt: string;
  state: NodeState;
  revokedAt: string | null;
  revokedBy: string | null;
  revokeReason: string | null;
  certificate: { serialNumber: string; notBefore: string | null; notAfter: string; sha256: string | null };
  /** the last authenticated node call, to the minute */
  lastSeenAt: string | null;
  /** the latest snapshot; null before the first report */
  inventory: { snapshotId: string; takenAt: string; lastReportedAt: string } | null;
}

/** What toNodeJson reads: a nodes row and its latest snapshot. */
export interface NodeRow {
  id: string;
  tenantId: string;
  siteId: string;
  poolId: string;
  hostname: string;
  systemUuid: string;
  serialNumber: string;
  macAddresses: string[];
  tpmEkSha256: string | null;
  joinRequestId: string | null;
  createdAt: Date;
  state: NodeState;
  revokedAt: Date | null;
  revokedBy: string | null;
  revokeReason: string | null;
  certSerial: string;
  certNotBefore: Date | null;
  certNotAfter: Date;
  certSha256: string | null;
  lastSeenAt: Date | null;
  inventorySnapshots: { id: string; takenAt: Date; lastReportedAt: Date }[];
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toNodeJson(row: NodeRow): NodeJson {
  const [latest] = row.inventorySnapshots;
  return {
    id: row.id,
    tenantId: row.tenantId,
    siteId: row.siteId,
    poolId: row.poolId,
    hostname: row.hostname,
    machine: toMachineJson(row),
    joinRequestId: row.joinRequestId,
    joinedAt: row.createdAt.toISOString(),
    state: row.state,
    revokedAt: iso(row.revokedAt),
    revokedBy: row.revokedBy,
    revokeReason: row.revokeReason,
    certificate: { serialNumber: row.certSerial, notBefore: iso(row.certNotBefore), notAfter: row.certNotAfter.toISOString(), sha256: row.certSha256 },
    lastSeenAt: iso(row.lastSeenAt),
    inventory: latest ? { snapshotId: latest.id, takenAt: latest.takenAt.toISOString(), lastReportedAt: latest.lastReportedAt.toISOString() } : null,
  };
}
