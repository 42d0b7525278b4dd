import "server-only";
import type { Tx } from "../db/client";

const HOUR_MS = 3_600_000;

/** The UTC hour `now` falls in: the window maxPerHour counts in. */
export const hourOf = (now: Date) => new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);

/**
 * SPEC H2's maxPerHour, as a conditional write in the approval's transaction:
 * the hour's count goes up only while it is below the cap, so concurrent
 * approvals on any number of stateless instances take turns on the one row
 * and exactly maxPerHour of them get a slot. False: the cap is reached (the
 * caller rolls its approval back). A rolled-back approval gives its slot back.
 * Windows are UTC clock hours (a burst across an hour's end may see 2× the cap
 * within sixty minutes): one row per rule per hour, cheap to count exactly.
 */
export async function countRuleApproval(tx: Tx, rule: { id: string; maxPerHour: number }, now: Date): Promise<boolean> {
  const counted = await tx.$queryRaw<{ approvals: number }[]>`
    INSERT INTO approval_rule_hours (rule_id, hour, approvals) VALUES (${rule.id}, ${hourOf(now)}, 1)
    ON CONFLICT (rule_id, hour) DO UPDATE SET approvals = approval_rule_hours.approvals + 1
      WHERE approval_rule_hours.approvals < ${rule.maxPerHour}
    RETURNING approvals`;
  return counted.length > 0;
}
