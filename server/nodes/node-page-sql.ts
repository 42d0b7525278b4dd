import "server-only";
import { Prisma } from "../db/generated/client";
import type { NodeStateFilter } from "@/lib/validations/nodes";
import { staleBefore, type AttestationReading, type AttestationState } from "@/lib/nodes/node-attestation";
import type { NodeRow } from "@/lib/nodes/node-json";
import { NODE_JSON_COLUMNS } from "./node-rows";

// nodes/list's page in one statement (SPEC D1): the pool's nodes in ascending
// id after `cursor`, each with its latest inventory snapshot (a LATERAL read
// of inventory_snapshots_node_id_id_idx per node, where a nested Prisma read
// fetched every snapshot of the page's nodes and kept the newest in memory).

export interface NodePageQuery {
  poolId: string;
  state: NodeStateFilter;
  cursor?: string;
  /** SPEC I3: keep the nodes whose attestation reads as this state under `reading` */
  attestation?: AttestationState;
  reading: AttestationReading;
  pageSize: number;
}

export function nodePageSql(query: NodePageQuery): Prisma.Sql {
  const { poolId, state, cursor, attestation, reading, pageSize } = query;
  const conditions = [Prisma.sql`n.pool_id = ${poolId}`];
  // compared as the enum, so nodes_pool_id_state_id_idx serves it
  if (state !== "all") conditions.push(Prisma.sql`n.state = ${state}::node_state`);
  if (cursor) conditions.push(Prisma.sql`n.id > ${cursor}`);
  if (attestation) conditions.push(attestationCondition(attestation, reading));
  return Prisma.sql`
    SELECT ${NODE_JSON_COLUMNS},
           s.id AS "snapshotId", s.taken_at AS "snapshotTakenAt", s.last_reported_at AS "snapshotLastReportedAt"
    FROM nodes n
    LEFT JOIN LATERAL (
      SELECT id, taken_at, last_reported_at FROM inventory_snapshots WHERE node_id = n.id ORDER BY id DESC LIMIT 1
    ) s ON true
    WHERE ${Prisma.join(conditions, " AND ")}
    ORDER BY n.id
    LIMIT ${pageSize}`;
}

/**
 * readNodeAttestation's rule as a filter (nodes_pool_id_attestation_state_id_idx,
 * nodes_pool_id_attested_at_idx): in a pool that requires a known boot, a last
 * quote at or before the cutoff, or none, is stale whatever it said.
 */
function attestationCondition(wanted: AttestationState, reading: AttestationReading): Prisma.Sql {
  if (!reading.requireKnownBoot)
    return wanted === "stale" ? Prisma.sql`false` : Prisma.sql`n.attestation_state = ${wanted}::node_attestation_state`;
  const cutoff = staleBefore(reading);
  if (wanted === "stale") return Prisma.sql`(n.attested_at IS NULL OR n.attested_at <= ${cutoff})`;
  return Prisma.sql`n.attestation_state = ${wanted}::node_attestation_state AND n.attested_at > ${cutoff}`;
}

/** A row of the page statement: a nodes row, its latest snapshot flattened beside it. */
export type NodePageRow = Omit<NodeRow, "inventorySnapshots"> & {
  snapshotId: string | null;
  snapshotTakenAt: Date | null;
  snapshotLastReportedAt: Date | null;
};

/** The row as toNodeJson reads it (the latest snapshot as its one-element history, or none). */
export function nodeRowOf({ snapshotId, snapshotTakenAt, snapshotLastReportedAt, ...node }: NodePageRow): NodeRow {
  const inventorySnapshots =
    snapshotId && snapshotTakenAt && snapshotLastReportedAt
      ? [{ id: snapshotId, takenAt: snapshotTakenAt, lastReportedAt: snapshotLastReportedAt }]
      : [];
  return { ...node, inventorySnapshots };
}
