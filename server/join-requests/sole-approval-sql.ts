import "server-only";
import { Prisma } from "../db/generated/client";

/** SPEC H1: the approval of a request that one approval admits. */
export interface SoleApproval {
  by: string;
  ttlSeconds: number;
}

/**
 * The parts of the transition statement that record a sole approval: a guard
 * (the update applies only while the request needs one approval; a request
 * whose count was raised meanwhile is read again and decided on the locked
 * path) and the approval's row, inserted from the updated row so that it
 * exists exactly when the approval did. A CTE, to follow `updated`.
 */
export function soleApprovalSql(approval: SoleApproval, now: Date): { guard: Prisma.Sql; insert: Prisma.Sql } {
  return {
    guard: Prisma.sql`AND approvals_required <= 1`,
    insert: Prisma.sql`, approval AS (
      INSERT INTO join_request_approvals (request_id, principal, approved_at, ttl_seconds)
      SELECT id, ${approval.by}, ${now}, ${approval.ttlSeconds} FROM updated
      ON CONFLICT DO NOTHING
    )`,
  };
}
