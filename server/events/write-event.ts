import "server-only";
import type { Tx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { newId } from "@/lib/ids";
import type { EventType } from "@/lib/validations/events";

// The one writer of the events table (the outbox, SPEC B6): its columns, its
// id (a ULID from the time it happened, so the id orders and dates the event)
// and what every event's data carries. Deliveries are not enqueued here: the
// webhook worker finds new events by id (enqueue-deliveries.ts). Two ways in,
// both inside the caller's unit of work: writeEvent in the caller's
// transaction, and insertEventSql inside a statement that changes the rows
// the event is about (one statement is atomic, and a round trip cheaper).

/** What an event adds to the ids and actor every recorder writes. */
export type EventData = Record<string, string | string[] | number | boolean | null | object>;

/** An events row, as the Prisma model and the SQL insert both write it. */
export interface EventRow {
  id: string;
  type: EventType;
  occurredAt: Date;
  tenantId: string | null;
  siteId: string | null;
  poolId: string | null;
  requestId: string | null;
  data: EventData;
}

/** The id of an event that happened at `now`. */
export function eventId(now: Date): string {
  return newId("evt", now.getTime());
}

/** The row of an event that happened at `now`. */
export function eventRow(event: Omit<EventRow, "id" | "occurredAt"> & { now: Date }): EventRow {
  const { now, ...row } = event;
  return { ...row, id: eventId(now), occurredAt: now };
}

/** Writes the event in the caller's transaction: it exists exactly when the change it records committed. */
export async function writeEvent(tx: Tx, row: EventRow): Promise<void> {
  await tx.event.create({ data: row });
}

/** A bound value, or SQL over the source's columns. */
type Value = string | null | Prisma.Sql;

/**
 * The events row write in SQL, for statements that write an event from the
 * rows they change: INSERT … SELECT … FROM `source`, so the event exists
 * exactly when a source row does, in the same statement.
 */
export function insertEventSql(
  event: Omit<EventRow, "tenantId" | "siteId" | "poolId" | "requestId" | "data"> & {
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

/** An event row made in JavaScript, inserted by a statement (its values bound, its data as jsonb). */
export function insertEventRowSql(row: EventRow, source: Prisma.Sql): Prisma.Sql {
  const value = (id: string | null): Value => id ?? Prisma.sql`NULL`;
  return insertEventSql(
    {
      ...row,
      tenantId: value(row.tenantId),
      siteId: value(row.siteId),
      poolId: value(row.poolId),
      requestId: value(row.requestId),
      data: Prisma.sql`${JSON.stringify(row.data)}::jsonb`,
    },
    source,
  );
}
