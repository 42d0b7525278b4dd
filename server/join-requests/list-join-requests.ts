import "server-only";
import { readRows } from "../db/read-rows";
import { Prisma, type JoinRequest } from "../db/generated/client";
import type { Db } from "../db/client";
import type { PoolFacts } from "../places/find-pool";
import type { StateFilter } from "@/lib/validations/join-requests";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { effectiveStateSql } from "./effective-state-sql";
import { JOIN_REQUEST_COLUMNS } from "./join-request-columns";
import { toJoinRequestJson } from "./join-request-json";

/** The effective-state filter in SQL: expiry is read at query time (SPEC B1). */
function stateCondition(state: StateFilter, now: Date): Prisma.Sql {
  return state === "all" ? Prisma.sql`TRUE` : effectiveStateSql(state, now);
}

export interface ListJoinRequestsResult {
  joinRequests: JoinRequestJson[];
  nextCursor?: string;
}

/**
 * The list statement. Each half (the pool's own, the site's unclaimed) is its
 * own index scan (see the indexes on JoinRequest): in id order for the stored
 * states, over the unexpired range for `pending`/`approved` (then sorted, as
 * the live rows are few), merged and cut to the page.
 */
export function listJoinRequestsSql(query: {
  pool: Pick<PoolFacts, "id" | "siteId" | "tenantId">;
  state: StateFilter;
  pageSize: number;
  cursor?: string;
  now: Date;
}): Prisma.Sql {
  const { pool, state, pageSize, cursor, now } = query;
  const filter = Prisma.sql`${stateCondition(state, now)}${cursor ? Prisma.sql` AND id > ${cursor}` : Prisma.empty}`;
  return Prisma.sql`
    SELECT ${JOIN_REQUEST_COLUMNS} FROM (
      (SELECT * FROM join_requests
        WHERE pool_id = ${pool.id} AND ${filter} ORDER BY id LIMIT ${pageSize})
      UNION ALL
      (SELECT * FROM join_requests
        WHERE pool_id IS NULL AND site_id = ${pool.siteId} AND tenant_id = ${pool.tenantId} AND ${filter}
        ORDER BY id LIMIT ${pageSize})
    ) visible
    ORDER BY id LIMIT ${pageSize}`;
}

/** The requests `pool` can decide, oldest first: its own, and its site's that no pool has claimed. */
export async function listJoinRequests(input: {
  db: Db;
  pool: PoolFacts;
  state: StateFilter;
  limit: number;
  cursor?: string;
  now: Date;
}): Promise<ListJoinRequestsResult> {
  const { db, limit, now } = input;
  // one more than the page tells whether a next page exists
  const rows = await readRows<JoinRequest>(db, listJoinRequestsSql({ ...input, pageSize: limit + 1 }));
  return listPage(rows, limit, now);
}

/** A page from the rows of `listJoinRequestsSql` with `pageSize: limit + 1`: the extra row only says a next page exists. */
export function listPage(rows: JoinRequest[], limit: number, now: Date): ListJoinRequestsResult {
  const page = rows.slice(0, limit);
  const result: ListJoinRequestsResult = { joinRequests: page.map((row) => toJoinRequestJson(row, now)) };
  if (rows.length > limit) result.nextCursor = page[page.length - 1]!.id;
  return result;
}
