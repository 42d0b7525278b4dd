import "server-only";
import type { Tx } from "../db/client";
import { eventRow, writeEvent, type EventData } from "../events/write-event";
import type { AdminEventType } from "@/lib/validations/events";

/** Who made an administrative change: `cli:<os user>` for the operator's command line, `seed` for the demo data. */
export type AdminActor = string;

/**
 * Records an administrative change in the caller's transaction (the outbox,
 * so it is delivered to webhooks like every event). Where it lands decides
 * who reads it with events/list: a pool's change in that pool, a site's in
 * the site's pools, a tenant's in all of its pools (SPEC E1). Never a secret.
 */
export async function recordAdminChange(
  tx: Tx,
  change: {
    type?: AdminEventType;
    actor: AdminActor;
    noun: string;
    verb: string;
    /** null: a change above any tenant (a new user without grants) */
    tenantId: string | null;
    siteId?: string | null;
    poolId?: string | null;
    /** the id of what changed */
    id: string;
    now: Date;
    data?: EventData;
  },
): Promise<void> {
  const { tenantId, now } = change;
  const siteId = change.siteId ?? null;
  const poolId = change.poolId ?? null;
  await writeEvent(
    tx,
    eventRow({
      type: change.type ?? "compute.admin.changed",
      now,
      tenantId,
      siteId,
      poolId,
      requestId: null,
      data: { actor: change.actor, noun: change.noun, verb: change.verb, id: change.id, tenantId, siteId, poolId, ...change.data },
    }),
  );
}
