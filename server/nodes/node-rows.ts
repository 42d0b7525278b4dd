import "server-only";
import { Prisma } from "../db/generated/client";
import type { NodeRow } from "@/lib/nodes/node-json";

// What toNodeJson needs of a nodes row, in one list for both ways it is read:
// Prisma's model (nodes/get, nodes/revoke, the console's node page, the seed)
// and nodes/list's page statement (node-page-sql.ts, raw SQL through pg for
// speed). A field added to NodeRow is refused here until it is listed.

/** Each column by the name the Prisma model (and NodeRow) gives it. */
const NODE_COLUMN_OF = {
  id: "id",
  tenantId: "tenant_id",
  siteId: "site_id",
  poolId: "pool_id",
  hostname: "hostname",
  systemUuid: "system_uuid",
  serialNumber: "serial_number",
  macAddresses: "mac_addresses",
  tpmEkSha256: "tpm_ek_sha256",
  tpmEkProven: "tpm_ek_proven",
  joinRequestId: "join_request_id",
  createdAt: "created_at",
  state: "state",
  revokedAt: "revoked_at",
  revokedBy: "revoked_by",
  revokeReason: "revoke_reason",
  certSerial: "cert_serial",
  certNotBefore: "cert_not_before",
  certNotAfter: "cert_not_after",
  certSha256: "cert_sha256",
  lastSeenAt: "last_seen_at",
  attestationState: "attestation_state",
  attestedAt: "attested_at",
  attestationBootState: "attestation_boot_state",
  attestationPcrs: "attestation_pcrs",
  attestationUnmatched: "attestation_unmatched",
} as const satisfies Record<Exclude<keyof NodeRow, "inventorySnapshots">, string>;

type NodeField = keyof typeof NODE_COLUMN_OF;

// read as text in SQL, as Prisma reads an enum
const ENUM_FIELDS: ReadonlySet<NodeField> = new Set(["state", "attestationState"]);

const NODE_FIELDS = Object.keys(NODE_COLUMN_OF) as NodeField[];

/** The Prisma select: every column, and the latest snapshot (one more indexed read per page). */
export const NODE_JSON_SELECT = {
  ...(Object.fromEntries(NODE_FIELDS.map((field) => [field, true])) as Record<NodeField, true>),
  inventorySnapshots: { orderBy: { id: "desc" }, take: 1, select: { id: true, takenAt: true, lastReportedAt: true } },
} satisfies Prisma.NodeSelect;

export type NodeJsonRow = Prisma.NodeGetPayload<{ select: typeof NODE_JSON_SELECT }>;

/** The same columns in SQL, of the nodes row aliased `n`, each named as the model names it. */
export const NODE_JSON_COLUMNS = Prisma.raw(
  NODE_FIELDS.map((field) => {
    const column = `n.${NODE_COLUMN_OF[field]}${ENUM_FIELDS.has(field) ? "::text" : ""}`;
    return column === `n.${field}` ? column : `${column} AS "${field}"`;
  }).join(", "),
);
