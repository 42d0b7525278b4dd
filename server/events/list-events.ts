import "server-only";
import { Prisma, type Event } from "../db/generated/client";
import type { Db } from "../db/client";
import type { PoolFacts } from "../places/find-pool";
import type { EventType } from "@/lib/validations/events";
import type { EventJson } from "@/lib/events/event-json";

/**
 * The events of the requests `pool` owns and of its site's unclaimed
 * requests, in id order (SPEC B6), and the administrative changes that
 * concern the pool: its own, and its site's and its tenant's made while
 * the pool existed (SPEC E1). Ownership is the request's current one,
 * so a site request's history follows it into the pool that claimed it; the
 * events of a request retention has deleted follow the pool they name.
 */
export async function listEvents(input: {
  db: Db;
  pool: PoolFacts;
  types?: EventType[];
  after?: string;
  requestId?: string;
  limit: number;
}): Promise<{ events: EventJson[]; nextCursor?: string }> {
  const { db, pool, types, after, requestId, limit } = input;
  const rows = await db.$queryRaw<Event[]>`
    SELECT e.id, e.type, e.occurred_at AS "occurredAt", e.tenant_id AS "tenantId", e.data
    FROM events e LEFT JOIN join_requests r ON r.id = e.request_id
    WHERE e.tenant_id = ${pool.tenantId}
      ${after ? Prisma.sql`AND e.id > ${after}` : Prisma.empty}
      ${types?.length ? Prisma.sql`AND e.type IN (${Prisma.join(types)})` : Prisma.empty}
      ${requestId ? Prisma.sql`AND e.request_id = ${requestId}` : Prisma.empty}
      AND (r.pool_id = ${pool.id}
        OR (r.id IS NOT NULL AND r.pool_id IS NULL AND r.site_id = ${pool.siteId})
        OR (r.id IS NULL AND e.pool_id = ${pool.id})
        -- an administrative change of the pool's site or of the whole tenant, since the pool was made
        OR (e.request_id IS NULL AND e.pool_id IS NULL AND (e.site_id IS NULL OR e.site_id = ${pool.siteId})
          AND e.occurred_at >= (SELECT created_at FROM pools WHERE id = ${pool.id})))
    ORDER BY e.id LIMIT ${limit + 1}`;
  const page = rows.slice(0, limit);
  const events = page.map((row) => ({
    id: row.id,
    type: row.type as EventType, // written only by the event recorders, from EVENT_TYPES
    occurredAt: row.occurredAt.toISOString(),
    tenantId: row.tenantId!, // the query reads one tenant's events
    data: row.data as EventJson["data"], // every recorder writes an object
  }));
  return rows.length > limit ? { events, nextCursor: page[page.length - 1]!.id } : { events };
}
