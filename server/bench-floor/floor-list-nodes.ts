import { ApiError } from "@/server/api/errors";
import { listNodesMethod } from "@/server/methods/nodes-methods";
import { attestationReadingOf } from "@/server/nodes/attestation-reading";
import { nodesPage } from "@/server/nodes/list-nodes";
import { nodePageSql, nodeRowOf, type NodePageRow } from "@/server/nodes/node-page-sql";
import type { NodeStateFilter } from "@/lib/validations/nodes";
import { poolFloorMethod } from "./floor-pool-method";

// nodes/list on the floors: the app's page statement (nodePageSql: the page's
// nodes in ascending id, each with its latest snapshot) sent through pg, and
// the app's page and JSON (nodesPage, toNodeJson), so the bytes are the app's.
// The `attestation` filter is not served here (the bench lists without it).

export const listNodesFloor = poolFloorMethod(listNodesMethod.permission, async ({ db, input, pool, now }) => {
  if (input.attestation !== undefined) throw new ApiError("INVALID_ARGUMENT", "the bench floor lists nodes without an attestation filter");
  const limit = typeof input.limit === "number" ? input.limit : 100;
  const state = (input.state ?? "active") as NodeStateFilter;
  const cursor = typeof input.cursor === "string" ? input.cursor : undefined;
  const reading = attestationReadingOf(pool, now);
  const sql = nodePageSql({ poolId: pool.id, state, cursor, reading, pageSize: limit + 1 });
  const { rows } = await db.query<NodePageRow>(sql.text, sql.values as unknown[]);
  return nodesPage(rows.map(nodeRowOf), limit, reading);
});
