import { ulid } from "ulid";
import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { deliveriesOf, webhookWorld } from "@/test/api/webhook-world";
import { enqueueDeliveries, SCAN_LAG_MS } from "./enqueue-deliveries";
import { eventIdFloor } from "@/lib/ids";

// Event ids come from the writer's clock just before its commit, so an event
// can become visible after later ones were already considered.
const eventAt = (ms: number) => `evt_${ulid(ms).toLowerCase()}`;
const MIN = 60_000;

describe("enqueueDeliveries", () => {
  it("considers an event that commits late (an id older than ones already seen) within the lag; once per subscription", async () => {
    const db = await getDb();
    const { world, subscriptionId } = await webhookWorld("http://127.0.0.1:9/never");
    const t = Date.now();
    await db.webhookSubscription.update({ where: { id: subscriptionId }, data: { scanAfter: eventIdFloor(t - 30 * MIN) } });
    const insert = (id: string) =>
      db.event.create({
        data: {
          id,
          type: "security.join-request.created",
          occurredAt: new Date(),
          tenantId: world.tenantId,
          siteId: world.siteId,
          poolId: world.pools.a,
          requestId: null,
          data: {},
        },
      });
    const first = eventAt(t);
    await insert(first);
    expect(await enqueueDeliveries({ db, now: new Date(t), tenantId: world.tenantId })).toBe(1);
    const cursor = (await db.webhookSubscription.findUniqueOrThrow({ where: { id: subscriptionId } })).scanAfter;
    expect(cursor).toBe(eventIdFloor(t - SCAN_LAG_MS));

    const late = eventAt(t - 5 * MIN); // committed now, made five minutes ago
    const tooLate = eventAt(t - 15 * MIN); // beyond the lag: a writer's clock that far off is not supported
    await insert(late);
    await insert(tooLate);
    expect(await enqueueDeliveries({ db, now: new Date(t), tenantId: world.tenantId })).toBe(1);
    expect(await enqueueDeliveries({ db, now: new Date(t), tenantId: world.tenantId })).toBe(0);
    const considered = (await deliveriesOf(subscriptionId)).map((delivery) => delivery.eventId);
    expect(considered).toHaveLength(2);
    expect(considered).toContain(first);
    expect(considered).toContain(late);
    expect(considered).not.toContain(tooLate);
  });
});
