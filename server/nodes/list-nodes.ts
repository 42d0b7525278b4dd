import "server-only";
import { readRows } from "../db/read-rows";
import type { Db } from "../db/client";
import type { PoolFacts } from "../places/find-pool";
import type { NodeStateFilter } from "@/lib/validations/nodes";
import type { AttestationReading, AttestationState } from "@/lib/nodes/node-attestation";
import { toNodeJson, type NodeJson, type NodeRow } from "@/lib/nodes/node-json";
import { attestationReadingOf } from "./attestation-reading";
import { nodePageSql, nodeRowOf, type NodePageRow } from "./node-page-sql";

/**
 * nodes/list (SPEC D1): the pool's nodes in ascending id; `cursor` is the last
 * id of the previous page. `attestation` (SPEC I3) keeps the nodes whose
 * attestation reads as that state at `now`.
 */
export async function listNodes(input: {
  db: Db;
  pool: Pick<PoolFacts, "id" | "requireKnownBoot">;
  state: NodeStateFilter;
  attestation?: AttestationState;
  limit: number;
  cursor?: string;
  now: Date;
}): Promise<{ nodes: NodeJson[]; nextCursor?: string }> {
  const { db, pool, state, attestation, limit, cursor, now } = input;
  const reading = attestationReadingOf(pool, now);
  // one more row tells whether a next page exists
  const sql = nodePageSql({ poolId: pool.id, state, cursor, attestation, reading, pageSize: limit + 1 });
  const rows = await readRows<NodePageRow>(db, sql);
  return nodesPage(rows.map(nodeRowOf), limit, reading);
}

/** A page of nodes/list from up to `limit + 1` rows in ascending id: the extra row says a next page exists. */
export function nodesPage(rows: NodeRow[], limit: number, reading: AttestationReading): { nodes: NodeJson[]; nextCursor?: string } {
  const page = rows.slice(0, limit).map((row) => toNodeJson(row, reading));
  return rows.length > limit ? { nodes: page, nextCursor: page.at(-1)!.id } : { nodes: page };
}
