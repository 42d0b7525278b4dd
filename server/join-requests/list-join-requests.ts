import "server-only";
import { Prisma, type JoinRequest } from "../db/generated/client";
import type { Db } from "../db/client";
import type { PoolFacts } from "../pools/find-pool";
import type { StateFilter } from "@/lib/validations/join-requests";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import { effectiveStateSql } from "./effective-state-sql";
import { toJoinRequestJson } from "./join-request-json";
import { APPROVALS_COLUMN } from "./approvals-column";

// Every column, named as the Prisma model names it, so raw rows are JoinRequests
// (exported so the benchmark's HTTP floor reads rows the same way).
export const JOIN_REQUEST_COLUMNS = Prisma.raw(`id, tenant_id AS "tenantId", site_id AS "siteId", pool_id AS "poolId",
  state::text AS state, reasons, hostname, system_uuid AS "systemUuid", serial_number AS "serialNumber",
  mac_addresses AS "macAddresses", tpm_ek_sha256 AS "tpmEkSha256", tpm_ek_proven AS "tpmEkProven", csr_sha256 AS "csrSha256",
  created_at AS "createdAt", expires_at AS "expiresAt", decided_at AS "decidedAt", decided_by AS "decidedBy",
  reason, consumed_at AS "consumedAt", join_token_id AS "joinTokenId", enroll_key_id AS "enrollKeyId",
  approvals_required AS "approvalsRequired", ${APPROVALS_COLUMN}`);

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
 * the live rows are few), merged and cut to the page. Exported so the
 * benchmark's floor sends the very same SQL.
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
  const rows = await db.$queryRaw<JoinRequest[]>(listJoinRequestsSql({ ...input, pageSize: limit + 1 }));
  return listPage(rows, limit, now);
}

/** A page from the rows of `listJoinRequestsSql` with `pageSize: limit + 1` (shared with the benchmark's HTTP floor). */
export function listPage(rows: JoinRequest[], limit: number, now: Date): ListJoinRequestsResult {
  const page = rows.slice(0, limit);
  const result: ListJoinRequestsResult = { joinRequests: page.map((row) => toJoinRequestJson(row, now)) };
  if (rows.length > limit) result.nextCursor = page[page.length - 1]!.id;
  return result;
}
