import "server-only";
import { Prisma } from "../db/generated/client";
import type { Db } from "../db/client";

const BATCH = 500;
/**
 * An hour's count matters only while that hour lasts (maxPerHour counts in
 * UTC clock hours); two days keeps yesterday's for anyone reading "the last
 * 24 h" across midnight, with room to spare.
 */
export const RULE_HOUR_KEEP_MS = 48 * 3_600_000;

/**
 * Deletes approval rules' per-hour approval counts (SPEC H2's maxPerHour)
 * older than RULE_HOUR_KEEP_MS: every enforced approve rule that acts leaves
 * one row per hour, which nothing needs once the hour is long past. Batched
 * with SKIP LOCKED, so several instances may run it at once.
 */
export async function deleteOldRuleHours(input: { db: Db; now: Date; tenantId?: string }): Promise<number> {
  const { db, tenantId } = input;
  const cutoff = new Date(input.now.getTime() - RULE_HOUR_KEEP_MS);
  let deleted = 0;
  for (;;) {
    const count = await db.$executeRaw`
      DELETE FROM approval_rule_hours WHERE (rule_id, hour) IN (
        SELECT h.rule_id, h.hour FROM approval_rule_hours h
        ${tenantId ? Prisma.sql`JOIN approval_rules r ON r.id = h.rule_id AND r.tenant_id = ${tenantId}` : Prisma.empty}
        WHERE h.hour < ${cutoff}
        LIMIT ${BATCH}
        FOR UPDATE OF h SKIP LOCKED)`;
    deleted += count;
    if (count < BATCH) return deleted;
  }
}
