import "server-only";
import type { Tx } from "../db/client";
import { Prisma, type JoinRequest } from "../db/generated/client";
import type { JoinRequestEventType } from "@/lib/validations/events";
import { eventId, eventRow, insertEventSql, writeEvent, type EventData } from "./write-event";

type EventRequest = Pick<JoinRequest, "id" | "tenantId" | "siteId" | "poolId">;

/**
 * Writes a join request's event in the caller's transaction (the outbox):
 * the event exists exactly when its transition committed (SPEC B6).
 */
export async function recordJoinRequestEvent(
  tx: Tx,
  event: {
    type: JoinRequestEventType;
    request: EventRequest;
    actor: string;
    now: Date;
    data?: EventData;
  },
): Promise<void> {
  const { request, actor, now } = event;
  await writeEvent(
    tx,
    eventRow({
      type: event.type,
      now,
      tenantId: request.tenantId,
      siteId: request.siteId,
      poolId: request.poolId,
      requestId: request.id,
      data: { requestId: request.id, siteId: request.siteId, poolId: request.poolId, actor, ...event.data },
    }),
  );
}

/**
 * The same event inserted by the statement that changes the request: its
 * columns and data read from `source`, the join_requests rows that statement
 * returns, so the event names the request as the change left it.
 */
export function insertJoinRequestEventSql(
  event: { type: JoinRequestEventType; actor: string; now: Date; data?: EventData },
  source: Prisma.Sql,
): Prisma.Sql {
  return insertEventSql(
    {
      id: eventId(event.now),
      type: event.type,
      occurredAt: event.now,
      tenantId: Prisma.sql`tenant_id`,
      siteId: Prisma.sql`site_id`,
      poolId: Prisma.sql`pool_id`,
      requestId: Prisma.sql`id`,
      data: Prisma.sql`jsonb_build_object('requestId', id, 'siteId', site_id, 'poolId', pool_id, 'actor', ${event.actor}::text)
            || ${JSON.stringify(event.data ?? {})}::jsonb`,
    },
    source,
  );
}
