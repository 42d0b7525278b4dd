import "server-only";
import type { Db, Tx } from "../db/client";
import type { JoinRequest, Prisma } from "../db/generated/client";
import type { PoolFacts } from "../places/find-pool";
import { ApiError } from "../api/errors";
import { readRows } from "../db/read-rows";
import { writeRows } from "../db/write-statement";
import type { EventData } from "../events/write-event";
import { readJoinRequestSql, transitionSql, type TransitionChanges } from "./transition-statement";
import type { SoleApproval } from "./sole-approval-sql";
import { isVisibleToPool, type Decision } from "@/lib/join-requests/state-machine";
import type { JoinRequestEventType } from "@/lib/validations/events";

type Transition = Extract<Decision, { kind: "transition" }>;

export interface TransitionSpec {
  db: Db;
  requestId: string;
  pool: PoolFacts;
  actor: string;
  now: Date;
  /** Checks that come after visibility and before the state (e.g. an archived pool). */
  precheck?: () => void;
  decide: (request: JoinRequest) => Decision;
  changes: (request: JoinRequest, transition: Transition) => TransitionChanges;
  /** The pool the request goes into: the update applies only if the request meets its TPM requirement then (SPEC G2). */
  intoPool?: string;
  /** SPEC H1: a request this path does not decide alone (one needing more approvals) is handed back, undecided, as `diverted` */
  divert?: (request: JoinRequest) => boolean;
  /** SPEC H1: the approval recorded with the transition (see transitionSql) */
  approval?: SoleApproval;
  /** More conditions the update itself checks (SPEC H2: what no rule may approve, see rule-approval-guard.ts) */
  guard?: Prisma.Sql;
  event: (transition: Transition) => { type: JoinRequestEventType; data?: EventData };
  /** More writes that commit or roll back with the transition (e.g. the node a consumption admits). */
  alsoInTransaction?: (tx: Tx, after: JoinRequest) => Promise<void>;
}

/**
 * Read → decide → one conditional update with its event, in one statement.
 * The update only applies if the request is still exactly as it was read
 * (state, owner, unexpired); if another transition won the race, the request
 * is read again and decided anew, so every caller sees the state that won.
 * States only move forward, so this ends within a few rounds.
 */
export async function transitionJoinRequest(spec: TransitionSpec): Promise<{ request: JoinRequest; changed: boolean; diverted?: true }> {
  const { db, requestId, pool, now } = spec;
  for (let round = 0; round < 5; round++) {
    const [request] = await readRows<JoinRequest>(db, readJoinRequestSql(requestId));
    if (!request || !isVisibleToPool(request, pool)) {
      throw new ApiError("NOT_FOUND", `join request ${requestId} not found in pool ${pool.id}`);
    }
    spec.precheck?.();
    const decision = spec.decide(request);
    if (decision.kind === "unchanged") return { request, changed: false };
    if (decision.kind === "refused") throw new ApiError("INVALID_STATE", decision.message);
    if (spec.divert?.(request)) return { request, changed: false, diverted: true };

    const fused = transitionSql({
      read: request,
      from: decision.from,
      changes: spec.changes(request, decision),
      intoPool: spec.intoPool,
      approval: spec.approval,
      guard: spec.guard,
      event: spec.event(decision),
      actor: spec.actor,
      now,
    });
    // Alone, the statement is its own transaction, sent through the pool as
    // the floors send it (Prisma's $queryRaw machinery was 7.6% of approve's
    // CPU, issue #38); with more writes, they share one.
    const alsoInTransaction = spec.alsoInTransaction;
    const updated = alsoInTransaction
      ? await db.$transaction(async (tx) => {
          const [after] = await tx.$queryRaw<JoinRequest[]>(fused);
          if (after) await alsoInTransaction(tx, after);
          return after;
        })
      : (await writeRows<JoinRequest>(db, fused))[0];
    // no row: lost the race, read again
    if (updated) return { request: updated, changed: true };
  }
  throw new ApiError("UNAVAILABLE", `join request ${requestId} kept changing concurrently; try again`);
}
