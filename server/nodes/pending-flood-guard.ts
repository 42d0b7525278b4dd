import "server-only";
import type { Tx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { ApiError } from "../api/errors";
import { effectiveStateSql } from "../join-requests/effective-state-sql";
import { env } from "../env";

// The flood guard (SPEC B5 leaves it to us): a machine with a join token or
// a site enrollment key can make requests no one has decided yet; past these
// counts of live pending requests, new ones are refused (429) until humans
// catch up or they expire.
export interface PendingLimits {
  maxPendingPerPool: number;
  /** unclaimed site requests */
  maxPendingPerSite: number;
}

export function pendingLimitsFromEnv(): PendingLimits {
  return { maxPendingPerPool: env().BC_MAX_PENDING_PER_POOL, maxPendingPerSite: env().BC_MAX_PENDING_PER_SITE };
}

/**
 * In the transaction that has just inserted the new request: takes a
 * transaction-scoped advisory lock on the pool (or the site, for an unclaimed
 * request), so concurrent joins count one after another and the limit holds
 * exactly. The count sees this transaction's own insert, so it is one more
 * than the requests already waiting.
 */
export async function guardPendingFlood(
  tx: Tx,
  input: { tenantId: string; siteId: string; poolId: string | null; limits: PendingLimits; now: Date },
): Promise<void> {
  const { tenantId, siteId, poolId, limits, now } = input;
  const scope = poolId ? `pool:${poolId}` : `site:${siteId}`;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`join-flood:${scope}`}))`;
  // In SQL, with the state written out, so the live indexes serve it
  // (join_requests_live_idx, join_requests_unclaimed_live_idx): Prisma's enum
  // comparison would read every pending row of the pool, those past expiry too.
  const owner = poolId ? Prisma.sql`pool_id = ${poolId}` : Prisma.sql`tenant_id = ${tenantId} AND site_id = ${siteId} AND pool_id IS NULL`;
  const [counted] = await tx.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM join_requests WHERE ${owner} AND ${effectiveStateSql("pending", now)}`;
  const pending = counted!.count - 1;
  const limit = poolId ? limits.maxPendingPerPool : limits.maxPendingPerSite;
  if (pending >= limit) {
    throw new ApiError(
      "RESOURCE_EXHAUSTED",
      poolId
        ? `pool ${poolId} already has ${pending} pending join requests (the limit is ${limit}); try again later`
        : `site ${siteId} already has ${pending} unclaimed pending join requests (the limit is ${limit}); try again later`,
      undefined,
      60, // decisions and expiry free places in minutes, not seconds
    );
  }
}
