import "server-only";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { readRows } from "../db/read-rows";
import { storedStateInSql } from "../join-requests/effective-state-sql";
import { log } from "../log";
import { evaluateRequestRules, type EvaluationOutcome } from "./evaluate-request-rules";

/** How long the join's own evaluation has before the sweep takes a request: longer than any join takes. */
export const SWEEP_GRACE_MS = 30_000;
const BATCH = 200;

/**
 * SPEC H2: the requests whose rules have not run — the app crashed (or the
 * evaluation failed) between the join's commit and the rules — evaluated now,
 * oldest first. Safe on several instances at once: an evaluation commits only
 * if the request is still unmarked (finish-evaluation.ts), so each request is
 * evaluated once. Requests younger than the grace are the joins' own.
 */
export async function sweepUnevaluatedRequests(input: { db: Db; now: Date; graceMs?: number }): Promise<Record<EvaluationOutcome, number>> {
  const { db, now } = input;
  const before = new Date(now.getTime() - (input.graceMs ?? SWEEP_GRACE_MS));
  // In SQL, with the state written out, so join_requests_rules_unevaluated_idx
  // serves it: Prisma's enum comparison would read every pending request.
  const waiting = await readRows<{ id: string }>(
    db,
    Prisma.sql`
      SELECT id FROM join_requests WHERE rules_evaluated_at IS NULL AND ${storedStateInSql(["pending"])} AND created_at <= ${before}
      ORDER BY created_at LIMIT ${BATCH}`,
  );
  const counts: Record<EvaluationOutcome, number> = { decided: 0, raised: 0, throttled: 0, blocked: 0, skipped: 0, recorded: 0 };
  for (const { id } of waiting) {
    try {
      counts[await evaluateRequestRules({ db, requestId: id, now })]++;
    } catch (error) {
      log.error("approval rules failed on a request; the next sweep tries again", { requestId: id, error: String(error) });
    }
  }
  return counts;
}
