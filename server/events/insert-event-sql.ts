import "server-only";
import { Prisma } from "../db/generated/client";
import type { EventType } from "@/lib/validations/events";

/** A bound value, or SQL over the source's columns. */
type Value = string | null | Prisma.Sql;

/**
 * The events row write in SQL, for statements that write an event from the
 * rows they change (the outbox, SPEC B6): INSERT … SELECT … FROM `source`, so
 * the event exists exactly when a source row does, in the same statement.
 * The Prisma-model writers (recordJoinRequestEvent, recordNodeEvent,
 * recordAdminChange) write the same columns through `tx.event.create`.
 */
export function insertEventSql(
  event: {
    id: string;
    type: EventType;
    occurredAt: Date;
    tenantId: Value;
    siteId: Value;
    poolId: Value;
    requestId: Value;
    data: Prisma.Sql;
  },
  source: Prisma.Sql,
): Prisma.Sql {
  return Prisma.sql`INSERT INTO events (id, type, occurred_at, tenant_id, site_id, pool_id, request_id, data)
      SELECT ${event.id}, ${event.type}, ${event.occurredAt}, ${event.tenantId}, ${event.siteId}, ${event.poolId}, ${event.requestId},
        ${event.data}
      FROM ${source}`;
}
