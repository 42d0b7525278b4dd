import "server-only";
import type { Tx } from "../db/client";
import type { JoinRequest } from "../db/generated/client";
import { recordJoinRequestEvent } from "../events/record-event";
import { storedLivePastExpiryWhere } from "./effective-state-sql";

/**
 * Marks a request that is still stored pending/approved but past its expiry
 * as `expired`, with its `.expired` event, in the caller's transaction: one
 * conditional update, so if retention (or another retry) marked it first,
 * nothing happens and no second event is written. Returns whether it marked.
 */
export async function markJoinRequestExpired(tx: Tx, input: { requestId: string; actor: string; now: Date }): Promise<boolean> {
  const { requestId, actor, now } = input;
  const [expired] = await tx.joinRequest.updateManyAndReturn({
    where: { id: requestId, ...storedLivePastExpiryWhere(now) },
    data: { state: "expired" },
  });
  if (!expired) return false;
  await recordJoinRequestEvent(tx, { type: "security.join-request.expired", request: expired satisfies JoinRequest, actor, now });
  return true;
}
