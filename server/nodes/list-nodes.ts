import "server-only";
import type { Db } from "../db/client";
import type { PoolFacts } from "../places/find-pool";
import type { NodeStateFilter } from "@/lib/validations/nodes";
import { toNodeJson, type NodeJson } from "@/lib/nodes/node-json";
import { NODE_JSON_SELECT } from "./node-rows";

/** nodes/list (SPEC D1): the pool's nodes in ascending id; `cursor` is the last id of the previous page. */
export async function listNodes(input: {
  db: Db;
  pool: Pick<PoolFacts, "id">;
  state: NodeStateFilter;
  limit: number;
  cursor?: string;
}): Promise<{ nodes: NodeJson[]; nextCursor?: string }> {
  const { db, pool, state, limit, cursor } = input;
  const rows = await db.node.findMany({
    where: { poolId: pool.id, ...(state === "all" ? {} : { state }), ...(cursor ? { id: { gt: cursor } } : {}) },
    orderBy: { id: "asc" },
    take: limit + 1, // one more tells whether a next page exists
    select: NODE_JSON_SELECT,
  });
  const page = rows.slice(0, limit).map(toNodeJson);
  return rows.length > limit ? { nodes: page, nextCursor: page.at(-1)!.id } : { nodes: page };
}
