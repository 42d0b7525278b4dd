import "server-only";
import { Prisma, type JoinRequest } from "../db/generated/client";
import { insertJoinRequestEventSql } from "../events/record-event";
import type { EventData } from "../events/write-event";
import type { JoinRequestEventType } from "@/lib/validations/events";
import { effectiveStateSql } from "./effective-state-sql";
import { JOIN_REQUEST_COLUMN_OF, JOIN_REQUEST_COLUMNS } from "./join-request-columns";
import { soleApprovalSql, type SoleApproval } from "./sole-approval-sql";

/** What a transition may change on a request. */
export interface TransitionChanges {
  state: "approved" | "rejected" | "consumed";
  poolId?: string;
  expiresAt?: Date;
  decidedAt?: Date;
  decidedBy?: string;
  reason?: string | null;
  consumedAt?: Date;
}

const CHANGED_FIELDS: Exclude<keyof TransitionChanges, "state">[] = [
  "poolId",
  "expiresAt",
  "decidedAt",
  "decidedBy",
  "reason",
  "consumedAt",
];

/**
 * A transition and its event as one statement (SPEC B1, B6): the update
 * applies only if the request is still exactly as it was read (state, owner,
 * unexpired), and the event is inserted from the updated row, so it exists
 * exactly when the transition did, without a transaction of its own (one
 * statement is atomic). No row back means another transition won the race.
 */
export function transitionSql(input: {
  /** The request as read, and the state the decision moves it from. */
  read: Pick<JoinRequest, "id" | "poolId">;
  from: "pending" | "approved";
  changes: TransitionChanges;
  /** SPEC G2: the pool the request goes into; unless the request's EK is proven, it must not require TPM at the update */
  intoPool?: string;
  /** SPEC H1: an approval that decides alone: recorded with the transition, which applies only while one approval suffices */
  approval?: SoleApproval;
  /** further conditions of the update (SPEC H2: a rule's approval, rule-approval-guard.ts) */
  guard?: Prisma.Sql;
  event: { type: JoinRequestEventType; data?: EventData };
  actor: string;
  now: Date;
}): Prisma.Sql {
  const { read, from, changes, event, actor, now } = input;
  // In the same conditional update, not only in the decision read before it:
  // a pool that starts requiring TPM meanwhile takes no unproven request.
  const tpmGuard = input.intoPool
    ? Prisma.sql`AND (tpm_ek_proven OR NOT EXISTS (SELECT 1 FROM pools WHERE id = ${input.intoPool} AND requires_tpm))`
    : Prisma.empty;
  const approval = input.approval ? soleApprovalSql(input.approval, now) : { guard: Prisma.empty, insert: Prisma.empty };
  const assignments = [Prisma.sql`state = ${changes.state}::join_request_state`];
  for (const field of CHANGED_FIELDS) {
    if (changes[field] !== undefined) assignments.push(Prisma.sql`${Prisma.raw(JOIN_REQUEST_COLUMN_OF[field])} = ${changes[field]}`);
  }
  return Prisma.sql`
    WITH updated AS (
      UPDATE join_requests SET ${Prisma.join(assignments)}
      WHERE id = ${read.id} AND ${effectiveStateSql(from, now)}
        AND pool_id IS NOT DISTINCT FROM ${read.poolId} ${tpmGuard} ${approval.guard} ${input.guard ?? Prisma.empty}
      RETURNING *
    )${approval.insert}, recorded AS (
      ${insertJoinRequestEventSql({ ...event, actor, now }, Prisma.sql`updated`)}
    )
    SELECT ${JOIN_REQUEST_COLUMNS} FROM updated`;
}

/** One request by id, as a JoinRequest (raw: cheaper per call than findUnique). */
export function readJoinRequestSql(requestId: string): Prisma.Sql {
  return Prisma.sql`SELECT ${JOIN_REQUEST_COLUMNS} FROM join_requests WHERE id = ${requestId}`;
}
