import "server-only";
import type { Db, Tx } from "../db/client";
import type { JoinRequest } from "../db/generated/client";
import type { PoolFacts } from "../places/find-pool";
import { decideConsumption } from "@/lib/join-requests/state-machine";
import { requireProvenTpm } from "@/lib/join-requests/tpm-requirement";
import { transitionJoinRequest } from "./transition-join-request";

/**
 * Consumes an approval for the machine's retry: one conditional update, so
 * any number of concurrent retries admit one node (the others see `consumed`).
 * The pool may have started requiring TPM since the approval: checked again
 * (SPEC G2), in the decision and in the update.
 */
export async function consumeApproval(input: {
  db: Db;
  pool: PoolFacts;
  requestId: string;
  actor: string;
  now: Date;
  /** What the consumption admits (the node), written in its transaction. */
  admit?: (tx: Tx, consumed: JoinRequest) => Promise<void>;
}): Promise<JoinRequest> {
  const { request } = await transitionJoinRequest({
    ...input,
    decide: (current) => requireProvenTpm(decideConsumption(current, input.now), input.pool, current),
    changes: () => ({ state: "consumed", consumedAt: input.now }),
    intoPool: input.pool.id,
    event: () => ({ type: "security.join-request.consumed" }),
    alsoInTransaction: input.admit,
  });
  return request;
}
