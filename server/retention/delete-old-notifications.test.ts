import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { createWorld } from "@/test/api/world";
import { runRetention } from "./run-retention";

// The mail notification log is kept as long as the events it was made from; a pending mail stays however old.
const DAY = 86_400_000;
const settings = { retentionDays: 30, eventRetentionDays: 90, inventoryRetentionDays: 365 };

describe("notification retention", () => {
  it("deletes finished deliveries (and their attempts) older than eventRetentionDays; keeps pending and recent ones", async () => {
    const world = await createWorld();
    const db = await getDb();
    const now = Date.now();
    const delivery = async (key: string, status: "sent" | "dead" | "pending", ageDays: number) => {
      const at = new Date(now - ageDays * DAY);
      const row = await db.notificationDelivery.create({
        data: {
          deliveryKey: `${key}:${world.tenantId}`,
          kind: "waiting",
          tenantId: world.tenantId,
          email: "a@mail.test",
          status,
          nextAttemptAt: at,
          createdAt: at,
        },
      });
      await db.notificationAttempt.create({ data: { deliveryId: row.id, at, durationMs: 5, response: "250 ok" } });
      return row.id;
    };
    const oldSent = await delivery("old-sent", "sent", 91);
    const oldDead = await delivery("old-dead", "dead", 100);
    const oldPending = await delivery("old-pending", "pending", 120);
    const recentSent = await delivery("recent-sent", "sent", 89);

    const pass = await runRetention({ db, now: new Date(now), settings, tenantId: world.tenantId });
    expect(pass.deletedNotifications).toBe(2);
    const left = await db.notificationDelivery.findMany({ where: { tenantId: world.tenantId }, select: { id: true } });
    expect(left.map((row) => row.id).sort()).toEqual([oldPending, recentSent].sort());
    expect(await db.notificationAttempt.count({ where: { deliveryId: { in: [oldSent, oldDead] } } })).toBe(0);
  });
});
