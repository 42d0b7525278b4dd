import "server-only";
import { Prisma } from "../db/generated/client";
import type { Db } from "../db/client";
import { storedStateInSql } from "../join-requests/effective-state-sql";
import { DECIDED_STATES } from "@/lib/join-requests/state-machine";

const BATCH = 500;
const DAY_MS = 86_400_000;

/**
 * Deletes decided requests (rejected, consumed, expired) whose last change is
 * more than `retentionDays` before `now`. The last change is the latest of
 * creation, decision, consumption and, for an expired request, its expiry.
 * Their events stay (deleteOldEvents retires them on their own window).
 * Decided states are final, so nothing races a deletion but readers.
 */
export async function deleteOldRequests(input: { db: Db; now: Date; retentionDays: number; tenantId?: string }): Promise<number> {
  const { db, tenantId } = input;
  const cutoff = new Date(input.now.getTime() - input.retentionDays * DAY_MS);
  let deleted = 0;
  for (;;) {
    const count = await db.$executeRaw`
      DELETE FROM join_requests WHERE id IN (
        SELECT id FROM join_requests
        WHERE ${storedStateInSql(DECIDED_STATES)}
          AND GREATEST(created_at, decided_at, consumed_at, CASE WHEN state = 'expired' THEN expires_at END) < ${cutoff}
          ${tenantId ? Prisma.sql`AND tenant_id = ${tenantId}` : Prisma.empty}
        LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED)`;
    deleted += count;
    if (count < BATCH) return deleted;
  }
}
