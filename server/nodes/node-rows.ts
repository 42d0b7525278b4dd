import "server-only";
import type { Prisma } from "../db/generated/client";

/** What toNodeJson needs of a nodes row, its latest snapshot included (one more indexed read per page). */
export const NODE_JSON_SELECT = {
  id: true,
  tenantId: true,
  siteId: true,
  poolId: true,
  hostname: true,
  systemUuid: true,
  serialNumber: true,
  macAddresses: true,
  tpmEkSha256: true,
  tpmEkProven: true,
  joinRequestId: true,
  createdAt: true,
  state: true,
  revokedAt: true,
  revokedBy: true,
  revokeReason: true,
  certSerial: true,
  certNotBefore: true,
  certNotAfter: true,
  certSha256: true,
  lastSeenAt: true,
  attestationState: true,
  attestedAt: true,
  attestationBootState: true,
  attestationPcrs: true,
  attestationUnmatched: true,
  inventorySnapshots: { orderBy: { id: "desc" }, take: 1, select: { id: true, takenAt: true, lastReportedAt: true } },
} satisfies Prisma.NodeSelect;

export type NodeJsonRow = Prisma.NodeGetPayload<{ select: typeof NODE_JSON_SELECT }>;
