import "server-only";
import type { Tx } from "../db/client";
import { Prisma, type ApprovalRule } from "../db/generated/client";
import { ApiError } from "../api/errors";

/** The pool's rule `ruleId`, its row locked for the change; a rule of another pool is NOT_FOUND. */
export async function lockPoolRule(tx: Tx, poolId: string, ruleId: string): Promise<ApprovalRule> {
  const [row] = await tx.$queryRaw<{ id: string }[]>(
    Prisma.sql`SELECT id FROM approval_rules WHERE id = ${ruleId} AND pool_id = ${poolId} FOR UPDATE`,
  );
  const rule = row ? await tx.approvalRule.findUnique({ where: { id: row.id } }) : null;
  if (!rule) throw new ApiError("NOT_FOUND", `rule ${ruleId} not found in pool ${poolId}`);
  return rule;
}
