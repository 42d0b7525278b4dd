import "server-only";
import { readRows } from "../db/read-rows";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { ApiError } from "../api/errors";

export interface PoolFacts {
  id: string;
  tenantId: string;
  siteId: string;
  requiresTpm: boolean;
  /** SPEC I3: a node's attestation reads stale past the maximum age in this pool */
  requireKnownBoot: boolean;
  archivedAt: Date | null;
}

/** Which pool a pool method names. */
export interface PoolRef {
  tenantId: string;
  poolId: string;
}

/** A pool row as PostgreSQL's row_to_json writes it (times as text). */
export type PoolFactsJson = Omit<PoolFacts, "archivedAt"> & { archivedAt: string | null };

export function poolFactsFromJson(row: PoolFactsJson): PoolFacts {
  return { ...row, archivedAt: row.archivedAt === null ? null : new Date(row.archivedAt) };
}

/** The pool a lookup found, or NOT_FOUND naming what was asked for. */
export function poolOrNotFound(pool: PoolFacts | null | undefined, ref: PoolRef): PoolFacts {
  if (!pool) throw new ApiError("NOT_FOUND", `pool ${ref.poolId} not found in tenant ${ref.tenantId}`);
  return pool;
}

/**
 * The pool `poolId` under `tenantId`. Pool ids are unique across the control
 * plane, so a pool of another tenant is simply not found here (SPEC B1).
 */
export async function findPool(db: Db, tenantId: string, poolId: string): Promise<PoolFacts> {
  // Raw rather than findFirst: this runs on every published call, and here
  // findFirst cost 0.35 ms of CPU per call against 0.21 ms for the same
  // lookup through $queryRaw (measured in-process on real PostgreSQL), and
  // less again through pg (read-rows.ts).
  return poolOrNotFound(await readPool(db, tenantId, poolId), { tenantId, poolId });
}

/** The pool `poolId` under `tenantId`, or undefined: for a caller that refuses a missing pool its own way. */
export async function readPool(db: Db, tenantId: string, poolId: string): Promise<PoolFacts | undefined> {
  const [pool] = await readRows<PoolFacts>(db, poolSql(tenantId, poolId));
  return pool;
}

/** The pool statement: the facts a pool method needs, by tenant and id. */
export function poolSql(tenantId: string, poolId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT id, tenant_id AS "tenantId", site_id AS "siteId", requires_tpm AS "requiresTpm",
      require_known_boot AS "requireKnownBoot", archived_at AS "archivedAt"
    FROM pools WHERE id = ${poolId} AND tenant_id = ${tenantId}`;
}
