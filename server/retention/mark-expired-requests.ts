import "server-only";
import { Prisma, type JoinRequest } from "../db/generated/client";
import type { Db } from "../db/client";
import { markJoinRequestExpired } from "../join-requests/expire-join-request";
import { storedLivePastExpirySql } from "../join-requests/effective-state-sql";
import { decideExpiry } from "@/lib/join-requests/state-machine";

/** The actor of the `.expired` events retention writes. */
export const RETENTION_ACTOR = "system:retention";

const BATCH = 100;

/**
 * A batch is up to 100 updates and events in one interactive transaction;
 * Prisma's defaults (2 s to start it, 5 s to finish) are shorter than that
 * takes on a loaded machine, and a batch past them is rolled back and throws
 * ("Transaction already closed"). Explicit bounds: generous, still finite,
 * so a stuck pass ends and releases its row locks.
 */
const BATCH_TRANSACTION = { maxWait: 30_000, timeout: 120_000 } as const;

/**
 * Marks pending/approved requests past their expiry as `expired`, each with
 * its `.expired` event (SPEC B6). Rows are locked with SKIP LOCKED, so
 * instances running at once share the work; each mark is still the one
 * conditional update of markJoinRequestExpired, so a racing approve, reject
 * or consume either commits first (and the mark finds nothing to do) or
 * sees `expired`. Reading is unchanged: the effective state was already
 * `expired`. `tenantId` limits it to one tenant (tests share a database).
 */
export async function markExpiredRequests(input: { db: Db; now: Date; tenantId?: string }): Promise<number> {
  const { db, now, tenantId } = input;
  let marked = 0;
  for (;;) {
    const { found, count } = await db.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<Pick<JoinRequest, "id" | "state" | "expiresAt">[]>`
        SELECT id, state, expires_at AS "expiresAt" FROM join_requests
        WHERE ${storedLivePastExpirySql(now)}
          ${tenantId ? Prisma.sql`AND tenant_id = ${tenantId}` : Prisma.empty}
        ORDER BY expires_at LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED`;
      let count = 0;
      for (const row of rows) {
        if (decideExpiry(row, now).kind !== "transition") continue;
        if (await markJoinRequestExpired(tx, { requestId: row.id, actor: RETENTION_ACTOR, now })) count++;
      }
      return { found: rows.length, count };
    }, BATCH_TRANSACTION);
    marked += count;
    if (found < BATCH) return marked;
  }
}
