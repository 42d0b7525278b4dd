import "server-only";
import type { Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import type { PoolFacts } from "../places/find-pool";
import type { NodeStateFilter } from "@/lib/validations/nodes";
import { staleBefore, type AttestationReading, type AttestationState } from "@/lib/nodes/node-attestation";
import { toNodeJson, type NodeJson, type NodeRow } from "@/lib/nodes/node-json";
import { NODE_JSON_SELECT } from "./node-rows";
import { attestationReading } from "./attestation-reading";

/**
 * nodes/list (SPEC D1): the pool's nodes in ascending id; `cursor` is the last
 * id of the previous page. `attestation` (SPEC I3) keeps the nodes whose
 * attestation reads as that state at `now`.
 */
export async function listNodes(input: {
  db: Db;
  pool: Pick<PoolFacts, "id">;
  state: NodeStateFilter;
  attestation?: AttestationState;
  limit: number;
  cursor?: string;
  now: Date;
}): Promise<{ nodes: NodeJson[]; nextCursor?: string }> {
  const { db, pool, state, limit, cursor } = input;
  const reading = await attestationReading(db, pool.id, input.now);
  const rows = await db.node.findMany({
    where: {
      poolId: pool.id,
      ...(state === "all" ? {} : { state }),
      ...(cursor ? { id: { gt: cursor } } : {}),
      ...(input.attestation ? attestationWhere(input.attestation, reading) : {}),
    },
    orderBy: { id: "asc" },
    take: limit + 1, // one more tells whether a next page exists
    select: NODE_JSON_SELECT,
  });
  return nodesPage(rows, limit, reading);
}

/** A page of nodes/list from up to `limit + 1` rows in ascending id: the extra row says a next page exists. */
export function nodesPage(rows: NodeRow[], limit: number, reading: AttestationReading): { nodes: NodeJson[]; nextCursor?: string } {
  const page = rows.slice(0, limit).map((row) => toNodeJson(row, reading));
  return rows.length > limit ? { nodes: page, nextCursor: page.at(-1)!.id } : { nodes: page };
}

/**
 * readNodeAttestation's rule as a filter (nodes_pool_id_attestation_state_id_idx,
 * nodes_pool_id_attested_at_idx): in a pool that requires a known boot, a last
 * quote at or before the cutoff, or none, is stale whatever it said.
 */
function attestationWhere(wanted: AttestationState, reading: AttestationReading): Prisma.NodeWhereInput {
  if (!reading.requireKnownBoot) return wanted === "stale" ? { id: { in: [] } } : { attestationState: wanted };
  const cutoff = staleBefore(reading);
  if (wanted === "stale") return { OR: [{ attestedAt: null }, { attestedAt: { lte: cutoff } }] };
  return { attestationState: wanted, attestedAt: { gt: cutoff } };
}
