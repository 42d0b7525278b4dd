import { ApiError } from "@/server/api/errors";
import { Prisma } from "@/server/db/generated/client";
import { listNodesMethod } from "@/server/methods/nodes-methods";
import { attestationClock } from "@/server/nodes/attestation-reading";
import { nodesPage } from "@/server/nodes/list-nodes";
import type { NodeRow } from "@/lib/nodes/node-json";
import type { NodeStateFilter } from "@/lib/validations/nodes";
import { poolFloorMethod } from "./floor-pool-method";

// nodes/list on the floors. The app's list is a Prisma findMany (with the
// latest snapshot of each node) after a read of the pool's requireKnownBoot;
// the floor asks the same in one statement: the page's rows in ascending id,
// each with its latest snapshot, and the pool's flag. The app's page and JSON
// (nodesPage, toNodeJson) build the answer, so the bytes are the app's.
// The `attestation` filter is not served here (the bench lists without it).

interface NodeListRow extends Omit<NodeRow, "inventorySnapshots"> {
  snapshotId: string | null;
  snapshotTakenAt: Date | null;
  snapshotLastReportedAt: Date | null;
  requireKnownBoot: boolean;
}

function listNodesSql(query: { poolId: string; state: NodeStateFilter; pageSize: number; cursor?: string }): Prisma.Sql {
  const { poolId, state, pageSize, cursor } = query;
  const stateFilter = state === "all" ? Prisma.empty : Prisma.sql` AND n.state = ${state}::node_state`;
  const cursorFilter = cursor ? Prisma.sql` AND n.id > ${cursor}` : Prisma.empty;
  return Prisma.sql`
    SELECT n.id, n.tenant_id AS "tenantId", n.site_id AS "siteId", n.pool_id AS "poolId", n.hostname,
      n.system_uuid AS "systemUuid", n.serial_number AS "serialNumber", n.mac_addresses AS "macAddresses",
      n.tpm_ek_sha256 AS "tpmEkSha256", n.tpm_ek_proven AS "tpmEkProven", n.join_request_id AS "joinRequestId",
      n.created_at AS "createdAt", n.state, n.revoked_at AS "revokedAt", n.revoked_by AS "revokedBy",
      n.revoke_reason AS "revokeReason", n.cert_serial AS "certSerial", n.cert_not_before AS "certNotBefore",
      n.cert_not_after AS "certNotAfter", n.cert_sha256 AS "certSha256", n.last_seen_at AS "lastSeenAt",
      n.attestation_state AS "attestationState", n.attested_at AS "attestedAt",
      n.attestation_boot_state AS "attestationBootState", n.attestation_pcrs AS "attestationPcrs",
      n.attestation_unmatched AS "attestationUnmatched",
      s.id AS "snapshotId", s.taken_at AS "snapshotTakenAt", s.last_reported_at AS "snapshotLastReportedAt",
      (SELECT require_known_boot FROM pools WHERE id = ${poolId}) AS "requireKnownBoot"
    FROM nodes n
    LEFT JOIN LATERAL (
      SELECT id, taken_at, last_reported_at FROM inventory_snapshots WHERE node_id = n.id ORDER BY id DESC LIMIT 1
    ) s ON true
    WHERE n.pool_id = ${poolId}${stateFilter}${cursorFilter}
    ORDER BY n.id LIMIT ${pageSize}`;
}

/** A row as toNodeJson reads it: its latest snapshot as the one-element list Prisma gives. */
function nodeRowOf({ snapshotId, snapshotTakenAt, snapshotLastReportedAt, requireKnownBoot: _, ...node }: NodeListRow): NodeRow {
  const latest = snapshotId ? [{ id: snapshotId, takenAt: snapshotTakenAt!, lastReportedAt: snapshotLastReportedAt! }] : [];
  return { ...node, inventorySnapshots: latest };
}

export const listNodesFloor = poolFloorMethod(listNodesMethod.permission, async ({ db, input, pool, now }) => {
  if (input.attestation !== undefined) throw new ApiError("INVALID_ARGUMENT", "the bench floor lists nodes without an attestation filter");
  const limit = typeof input.limit === "number" ? input.limit : 100;
  const state = (input.state ?? "active") as NodeStateFilter;
  const cursor = typeof input.cursor === "string" ? input.cursor : undefined;
  const sql = listNodesSql({ poolId: pool.id, state, pageSize: limit + 1, cursor });
  const { rows } = await db.query<NodeListRow>(sql.text, sql.values as unknown[]);
  const reading = { ...attestationClock(now), requireKnownBoot: rows[0]?.requireKnownBoot ?? false };
  return nodesPage(rows.map(nodeRowOf), limit, reading);
});
