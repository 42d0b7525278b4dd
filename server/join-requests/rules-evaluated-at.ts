import "server-only";
import type { Tx } from "../db/client";
import { Prisma } from "../db/generated/client";

/**
 * SPEC H2: what a new pending request's rules_evaluated_at starts as. Null
 * when a rule could judge it (its pool has rules, or for an unclaimed site
 * request one of its site's pools does): the rules run right after the join
 * commits, or the sweep runs them. `now` when none could: nothing to run,
 * and the join path pays one indexed EXISTS, not an evaluation.
 */
export async function rulesEvaluatedAt(tx: Tx, input: { siteId: string; poolId: string | null; now: Date }): Promise<Date | null> {
  const pools = input.poolId === null ? Prisma.sql`(SELECT id FROM pools WHERE site_id = ${input.siteId})` : Prisma.sql`(${input.poolId})`;
  const [row] = await tx.$queryRaw<{ ruled: boolean }[]>(
    Prisma.sql`SELECT EXISTS (SELECT 1 FROM approval_rules WHERE pool_id IN ${pools}) AS ruled`,
  );
  return row?.ruled ? null : input.now;
}
