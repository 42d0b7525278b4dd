import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { approveJoinRequest } from "@/server/join-requests/approve-join-request";
import { rejectJoinRequest } from "@/server/join-requests/reject-join-request";
import { markJoinRequestExpired } from "@/server/join-requests/expire-join-request";
import { findPool } from "@/server/places/find-pool";
import { createWorld, makeRequest, type World } from "@/test/api/world";
import { ACTIVITY_HOURS, listPoolActivity, type ActivityHour } from "./list-pool-activity";

// Known events at known times on an injected clock. The window's last hour
// starts at T; the window's first hour at T - 23 h; hour k ends at T - 22 h + k h.
const H = 3600_000;
const T = new Date("2026-11-20T12:00:00.000Z").getTime();
const NOW = new Date(T + 30 * 60_000);
const at = (ms: number) => new Date(ms);

/** A 24-hour series that is zero but for `values` (hour index → count). */
const series = (values: Record<number, number> = {}) => Array.from({ length: ACTIVITY_HOURS }, (_, hour) => values[hour] ?? 0);
const column = (hours: ActivityHour[], key: "pending" | "approved" | "rejected") => hours.map((hour) => hour[key]);

describe("listPoolActivity", () => {
  let world: World;
  let activity: Map<string, ActivityHour[]>;

  beforeAll(async () => {
    const db = await getDb();
    world = await createWorld();
    const poolA = await findPool(db, world.tenantId, world.pools.a);
    const decide = { db, pool: poolA, actor: "test" };
    // created before the window, never decided: waits until its expiry at T - 6 h (no event marks it)
    await makeRequest(world, { poolId: world.pools.a, at: at(T - 30 * H) });
    // created in hour 13, expires within it, marked expired an hour later
    const expiring = await makeRequest(world, { poolId: world.pools.a, at: at(T - 10 * H + 30 * 60_000), ttlSeconds: 3600 });
    await db.$transaction((tx) => markJoinRequestExpired(tx, { requestId: expiring, actor: "test", now: at(T - 8 * H) }));
    // created in hour 18, approved in hour 20
    const approved = await makeRequest(world, { poolId: world.pools.a, at: at(T - 5 * H + 10 * 60_000) });
    await approveJoinRequest({ ...decide, requestId: approved, ttlSeconds: 3600, now: at(T - 3 * H + 5 * 60_000) });
    // created in hour 21, rejected in the current hour
    const rejected = await makeRequest(world, { poolId: world.pools.a, at: at(T - 2 * H + 60_000) });
    await rejectJoinRequest({ ...decide, requestId: rejected, now: at(T + 10 * 60_000) });
    // still pending, made in the current hour
    await makeRequest(world, { poolId: world.pools.a, at: at(T + 20 * 60_000) });
    // decided before the window: neither its wait nor its approval shows
    const old = await makeRequest(world, { poolId: world.pools.a, at: at(T - 40 * H) });
    await approveJoinRequest({ ...decide, requestId: old, ttlSeconds: 3600, now: at(T - 25 * H) });
    // an unclaimed request of the site, waiting since hour 22: in pools a and b
    await makeRequest(world, { poolId: null, at: at(T - H + 60_000) });
    // another tenant's request and decision at the same times
    const foreign = await makeRequest(world, {
      poolId: world.other.poolId,
      tenantId: world.other.tenantId,
      siteId: world.other.siteId,
      at: at(T - 2 * H),
    });
    const otherPool = await findPool(db, world.other.tenantId, world.other.poolId);
    await rejectJoinRequest({ db, pool: otherPool, requestId: foreign, actor: "test", now: at(T - H) });

    activity = await listPoolActivity({
      db,
      pools: [
        { id: world.pools.a, tenantId: world.tenantId, siteId: world.siteId },
        { id: world.pools.b, tenantId: world.tenantId, siteId: world.siteId },
        { id: world.pools.otherSite, tenantId: world.tenantId, siteId: world.otherSiteId },
      ],
      now: NOW,
    });
  });

  it("buckets by whole hours, the current hour last", () => {
    const hours = activity.get(world.pools.a)!;
    expect(hours).toHaveLength(ACTIVITY_HOURS);
    expect(hours[0]!.start).toEqual(at(T - 23 * H));
    expect(hours[23]!.start).toEqual(at(T));
  });

  it("counts what waited at each hour's end, through decisions and expiry, and the site's unclaimed requests", () => {
    const hours = activity.get(world.pools.a)!;
    const beforeExpiry = Object.fromEntries(Array.from({ length: 16 }, (_, hour) => [hour, 1]));
    expect(column(hours, "pending")).toEqual(series({ ...beforeExpiry, 13: 2, 18: 1, 19: 1, 21: 1, 22: 2, 23: 2 }));
    expect(column(hours, "approved")).toEqual(series({ 20: 1 }));
    expect(column(hours, "rejected")).toEqual(series({ 23: 1 }));
  });

  it("shows another pool of the site only the unclaimed request", () => {
    const hours = activity.get(world.pools.b)!;
    expect(column(hours, "pending")).toEqual(series({ 22: 1, 23: 1 }));
    expect(column(hours, "approved")).toEqual(series());
    expect(column(hours, "rejected")).toEqual(series());
  });

  it("gives a pool with no events all zeros, and nothing for pools not asked about (another tenant's)", () => {
    const hours = activity.get(world.pools.otherSite)!;
    for (const key of ["pending", "approved", "rejected"] as const) expect(column(hours, key)).toEqual(series());
    expect([...activity.keys()].sort()).toEqual([world.pools.a, world.pools.b, world.pools.otherSite].sort());
  });
});
