import "server-only";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import type { RuleMatchCounts } from "@/lib/approval-rules/rule-schemas";

const DAY_MS = 86_400_000;
const NONE: RuleMatchCounts = { enforced: 0, shadow: 0, throttled: 0, blocked: 0, errors: 0 };

/**
 * SPEC H2's Rules page: what each of a pool's rules did in the 24 hours
 * before `now`, read from the events the evaluation wrote (one query).
 * `enforced`: requests it decided (the approved/rejected event carries its
 * ruleId) or whose count it raised; `shadow`: shadow matches; `throttled`: an
 * approve past its maxPerHour; `blocked`: an enforce match that no rule may
 * carry out (SPEC H2's list); `errors`: evaluations that failed. A rule's
 * events outlive a change of its mode: each is counted as it happened.
 */
export async function countRuleMatches(input: {
  db: Db;
  tenantId: string;
  ruleIds: readonly string[];
  now: Date;
}): Promise<Map<string, RuleMatchCounts>> {
  const { db, tenantId, ruleIds, now } = input;
  const counts = new Map(ruleIds.map((id) => [id, { ...NONE }]));
  if (ruleIds.length === 0) return counts;
  const rows = await db.$queryRaw<(RuleMatchCounts & { ruleId: string })[]>(Prisma.sql`
    WITH matched AS (
      SELECT data->>'ruleId' AS rule_id, type = 'security.join-request.rule-matched' AS recorded, data->>'mode' AS mode,
        data->'error' IS NOT NULL AS failed, data->>'throttled' = 'true' AS throttled, data->'blocked' IS NOT NULL AS blocked
      FROM events
      WHERE tenant_id = ${tenantId} AND occurred_at > ${new Date(now.getTime() - DAY_MS)} AND occurred_at <= ${now}
        AND type IN ('security.join-request.rule-matched', 'security.join-request.approved', 'security.join-request.rejected')
        AND data->>'ruleId' IN (${Prisma.join(ruleIds)}))
    SELECT rule_id AS "ruleId",
      count(*) FILTER (WHERE NOT recorded OR (mode = 'enforce' AND NOT failed AND NOT throttled AND NOT blocked))::int AS enforced,
      count(*) FILTER (WHERE recorded AND mode = 'shadow' AND NOT failed)::int AS shadow,
      count(*) FILTER (WHERE recorded AND throttled)::int AS throttled,
      count(*) FILTER (WHERE recorded AND blocked)::int AS blocked,
      count(*) FILTER (WHERE recorded AND failed)::int AS errors
    FROM matched GROUP BY rule_id`);
  for (const { ruleId, ...row } of rows) counts.set(ruleId, row);
  return counts;
}
