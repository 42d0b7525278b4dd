import { z } from "zod";
import { machineJson, toMachineJson } from "@/lib/join-requests/join-request-json";
import { sha256Hex, timestamp } from "@/lib/wire/fields";
import { nodeAttestationJson, readNodeAttestation, type AttestationReading, type AttestationRow } from "./node-attestation";

// The wire shape of a node (SPEC D1), shared by server and console, declared once as a schema.

export const NODE_STATES = ["active", "revoked"] as const;
export type NodeState = (typeof NODE_STATES)[number];

export const nodeJson = z.strictObject({
  id: z.string().startsWith("node_"),
  tenantId: z.string(),
  siteId: z.string(),
  poolId: z.string(),
  hostname: z.string(),
  machine: machineJson,
  joinRequestId: z.string().nullable().meta({ description: "the consumed request; null when admitted at once" }),
  joinedAt: timestamp,
  state: z.enum(NODE_STATES),
  revokedAt: timestamp.nullable(),
  revokedBy: z.string().nullable(),
  revokeReason: z.string().nullable(),
  certificate: z.strictObject({
    serialNumber: z.string(),
    notBefore: timestamp.nullable(),
    notAfter: timestamp,
    sha256: sha256Hex.nullable(),
  }),
  lastSeenAt: timestamp.nullable().meta({ description: "the last authenticated node call, to the minute" }),
  inventory: z
    .strictObject({ snapshotId: z.string().startsWith("inv_"), takenAt: timestamp, lastReportedAt: timestamp })
    .nullable()
    .meta({ description: "the latest snapshot; null before the first report" }),
  attestation: nodeAttestationJson,
});
export type NodeJson = z.infer<typeof nodeJson>;

/** What toNodeJson reads: a nodes row and its latest snapshot. */
export interface NodeRow extends AttestationRow {
  id: string;
  tenantId: string;
  siteId: string;
  poolId: string;
  hostname: string;
  systemUuid: string;
  serialNumber: string;
  macAddresses: string[];
  tpmEkSha256: string | null;
  tpmEkProven: boolean;
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

/** `reading`: when the read is made, the maximum age and the pool's requireKnownBoot (SPEC I3's stale is read, not stored). */
export function toNodeJson(row: NodeRow, reading: AttestationReading): NodeJson {
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
    certificate: {
      serialNumber: row.certSerial,
      notBefore: iso(row.certNotBefore),
      notAfter: row.certNotAfter.toISOString(),
      sha256: row.certSha256,
    },
    lastSeenAt: iso(row.lastSeenAt),
    inventory: latest
      ? { snapshotId: latest.id, takenAt: latest.takenAt.toISOString(), lastReportedAt: latest.lastReportedAt.toISOString() }
      : null,
    attestation: readNodeAttestation(row, reading),
  };
}
