import "server-only";
import type { Tx } from "../db/client";
import type { JoinRequest } from "../db/generated/client";
import { newId } from "@/lib/ids";
import type { JoinRequestEventType } from "@/lib/validations/events";

/** What an event adds to requestId, siteId, poolId and actor. */
export type EventData = Record<string, string | string[] | number | null | readonly object[]>;

/**
 * Writes a join request's event in the caller's transaction (the outbox):
 * the event exists exactly when its transition committed (SPEC B6).
 */
export async function recordJoinRequestEvent(
  tx: Tx,
  event: {
    type: JoinRequestEventType;
    request: Pick<JoinRequest, "id" | "tenantId" | "siteId" | "poolId">;
    actor: string;
    now: Date;
    data?: EventData;
  },
): Promise<void> {
  const { request } = event;
  await tx.event.create({
    data: {
      id: newId("evt", event.now.getTime()),
      type: event.type,
      occurredAt: event.now,
      tenantId: request.tenantId,
      siteId: request.siteId,
      poolId: request.poolId,
      requestId: request.id,
      data: {
        requestId: request.id,
        siteId: request.siteId,
        poolId: request.poolId,
        actor: event.actor,
        ...event.data,
      },
    },
  });
}
