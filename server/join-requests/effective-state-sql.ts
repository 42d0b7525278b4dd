import "server-only";
import { Prisma } from "../db/generated/client";
import { JOIN_REQUEST_STATES, type JoinRequestState } from "@/lib/validations/join-requests";
import { EXPIRABLE_STATES } from "@/lib/join-requests/state-machine";

// SPEC B1 in SQL, the one place outside effectiveState(): a request stored in
// a live state (EXPIRABLE_STATES) past its expiry reads as `expired`. Both
// read the same list, and effective-state-sql.test.ts checks them against
// each other on real PostgreSQL. Columns are the join_requests table's,
// unqualified. States are written as literals, not parameters: the partial
// indexes' `state IN ('pending', 'approved')` can only be proven from
// literals, so the live scans stay on join_requests_live_idx and
// join_requests_unclaimed_live_idx (e2e/api/list-plan.test.ts).

type LiveState = (typeof EXPIRABLE_STATES)[number];

/** The time to read expiry at: a bound Date, or SQL such as `now()`. */
type Now = Date | Prisma.Sql;

const isLive = (state: JoinRequestState): state is LiveState => (EXPIRABLE_STATES as readonly string[]).includes(state);

/** States as SQL literals, each checked against the enum so nothing else is ever inlined. */
function stateLiterals(states: readonly JoinRequestState[]): Prisma.Sql {
  for (const state of states) {
    if (!(JOIN_REQUEST_STATES as readonly string[]).includes(state)) throw new Error(`not a join request state: ${state}`);
  }
  return Prisma.raw(states.map((state) => `'${state}'`).join(", "));
}

/** Rows whose stored state is one of `states` (expiry not read: for final states, or stored-state bookkeeping). */
export function storedStateInSql(states: readonly JoinRequestState[]): Prisma.Sql {
  return states.length === 1 ? Prisma.sql`state = ${stateLiterals(states)}` : Prisma.sql`state IN (${stateLiterals(states)})`;
}

/** Rows stored live but past their expiry: what retention (or a retry) marks `expired`. */
export function storedLivePastExpirySql(now: Now): Prisma.Sql {
  return Prisma.sql`${storedStateInSql(EXPIRABLE_STATES)} AND expires_at <= ${now}`;
}

/** Rows whose effective state at `now` is `state` (SPEC B1). */
export function effectiveStateSql(state: JoinRequestState, now: Now): Prisma.Sql {
  if (isLive(state)) return Prisma.sql`${storedStateInSql([state])} AND expires_at > ${now}`;
  if (state === "expired") return Prisma.sql`(state = 'expired' OR (${storedLivePastExpirySql(now)}))`;
  return storedStateInSql([state]);
}

/**
 * The same rule as a Prisma `where` clause, for a query through the model that
 * an index on another column serves (a request by id): Prisma compares the
 * enum as CAST($n::text AS join_request_state), which no partial index's
 * `state IN (...)` can be proven from.
 */
export function storedLivePastExpiryWhere(now: Date): Prisma.JoinRequestWhereInput {
  return { state: { in: [...EXPIRABLE_STATES] }, expiresAt: { lte: now } };
}
