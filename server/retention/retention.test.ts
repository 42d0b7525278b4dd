import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { ApiError } from "@/server/api/errors";
import { approveJoinRequest } from "@/server/join-requests/approve-join-request";
import { createJoinRequest } from "@/server/join-requests/create-join-request";
import { findPool } from "@/server/places/find-pool";
import { decideExpiry } from "@/lib/join-requests/state-machine";
import { createWorld, eventTypesOf, eventsOf, makeRequest, storedRequest, type World } from "@/test/api/world";
import { webhookWorld } from "@/test/api/webhook-world";
import { enqueueDeliveries } from "@/server/webhooks/enqueue-deliveries";
import { RETENTION_ACTOR } from "./mark-expired-requests";
import { runRetention } from "./run-retention";

// Retention with an injected clock. Every pass is limited to the test's own
// tenant: the database is shared with tests that keep requests past expiry.
const DAY = 86_400_000;
const settings = { retentionDays: 30, eventRetentionDays: 90, inventoryRetentionDays: 365 };
const EXPIRED = "security.join-request.expired";
async function retain(world: World, now: Date) {
  return runRetention({ db: await getDb(), now, settings, tenantId: world.tenantId });
}

describe("decideExpiry (state machine)", () => {
  const now = new Date("2026-12-02T12:00:00.000Z");
  const past = new Date(now.getTime() - 1);
  const later = new Date(now.getTime() + 1);
  it.each([
    ["pending", past, "transition"],
    ["approved", now, "transition"],
    ["expired", past, "unchanged"],
    ["pending", later, "refused"],
    ["approved", later, "refused"],
    ["rejected", past, "refused"],
    ["consumed", past, "refused"],
  ] as const)("stored %s expiring %s → %s", (state, expiresAt, kind) => {
    expect(decideExpiry({ state, expiresAt }, now).kind).toBe(kind);
  });
});

describe("TPM challenges (SPEC F1)", () => {
  it("are deleted a day after their expiry, used or not; younger ones stay", async () => {
    const world = await createWorld();
    const db = await getDb();
    const t0 = Date.now();
    const challenge = (name: string, expiresAt: number, used: boolean) => ({
      id: `tpmc_${name}${randomBytes(8).toString("hex")}`.slice(0, 31),
      tenantId: world.tenantId,
      csrSha256: "c".repeat(64),
      ekSha256: "e".repeat(64),
      akName: "000b",
      secretHash: randomBytes(32),
      createdAt: new Date(expiresAt - 300_000),
      expiresAt: new Date(expiresAt),
      usedAt: used ? new Date(expiresAt - 1000) : null,
    });
    const rows = [
      challenge("old", t0 - DAY - 1000, false),
      challenge("oldused", t0 - DAY - 1000, true),
      challenge("recent", t0 - DAY + 60_000, false),
      challenge("live", t0 + 60_000, false),
    ];
    await db.tpmChallenge.createMany({ data: rows });
    expect((await retain(world, new Date(t0))).deletedTpmChallenges).toBe(2);
    const left = await db.tpmChallenge.findMany({ where: { tenantId: world.tenantId }, select: { id: true } });
    expect(left.map((row) => row.id).sort()).toEqual([rows[2]!.id, rows[3]!.id].sort());
  });
});

describe("marking expired requests", () => {
  it("marks pending and approved requests past expiry, each with exactly one .expired event; leaves the rest; a second pass marks none", async () => {
    const world = await createWorld();
    const ids = {
      expiredPending: await makeRequest(world, { poolId: world.pools.a, outcome: "expired" }),
      expiredApproval: await makeRequest(world, { poolId: world.pools.a, outcome: "approved-expired" }),
      live: await makeRequest(world, { poolId: world.pools.a }),
      approved: await makeRequest(world, { poolId: world.pools.a, outcome: "approved" }),
      rejected: await makeRequest(world, { poolId: world.pools.a, outcome: "rejected" }),
      consumed: await makeRequest(world, { poolId: world.pools.a, outcome: "consumed" }),
      siteRequest: await makeRequest(world, { poolId: null, outcome: "expired" }),
    };
    const before = Object.fromEntries(await Promise.all(Object.entries(ids).map(async ([name, id]) => [name, await storedRequest(id)])));
    const now = new Date();

    expect(await retain(world, now)).toEqual({
      marked: 3,
      deletedRequests: 0,
      deletedEvents: 0,
      deletedTpmChallenges: 0,
      deletedSnapshots: 0,
      deletedRuleHours: 0,
      deletedNotifications: 0,
    });
    for (const name of ["expiredPending", "expiredApproval", "siteRequest"] as const) {
      const after = await storedRequest(ids[name]);
      expect(after.state, name).toBe("expired");
      // nothing but the state changes: the effective state already read expired
      expect({ ...after, state: before[name]!.state }).toEqual(before[name]);
      const expired = (await eventsOf(ids[name])).filter((event) => event.type === EXPIRED);
      expect(expired).toHaveLength(1);
      expect(expired[0]!.data).toMatchObject({ requestId: ids[name], actor: RETENTION_ACTOR, poolId: before[name]!.poolId });
      expect(expired[0]!.occurredAt).toEqual(now);
    }
    for (const name of ["live", "approved", "rejected", "consumed"] as const) {
      expect(await storedRequest(ids[name]), name).toEqual(before[name]);
      expect(await eventTypesOf(ids[name])).not.toContain(EXPIRED);
    }

    expect((await retain(world, new Date())).marked).toBe(0);
    for (const name of ["expiredPending", "expiredApproval", "siteRequest"] as const) {
      expect((await eventTypesOf(ids[name])).filter((type) => type === EXPIRED)).toHaveLength(1);
    }
  });

  it("two passes at once mark each request once (one event each)", async () => {
    const world = await createWorld();
    // made one after another: thirty transactions at once would wait on the
    // connection pool, which on a loaded machine outlasts Prisma's maxWait
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await makeRequest(world, { poolId: world.pools.a, outcome: "expired" }));
    const now = new Date();
    const [a, b] = await Promise.all([retain(world, now), retain(world, now)]);
    expect(a.marked + b.marked).toBe(30);
    for (const id of ids) expect((await eventTypesOf(id)).filter((type) => type === EXPIRED)).toHaveLength(1);
  });

  it("approve racing retention at the edge of expiry: exactly one wins, the other sees its state", async () => {
    const world = await createWorld();
    const db = await getDb();
    const pool = await findPool(db, world.tenantId, world.pools.a);
    const outcomes = { approved: 0, expired: 0 };
    for (let round = 0; round < 25; round++) {
      const created = new Date(Date.now() - 30_000);
      const request = await createJoinRequest({
        db,
        tenantId: world.tenantId,
        siteId: world.siteId,
        poolId: world.pools.a,
        reasons: ["unknown-to-discovery"],
        machine: {
          hostname: `edge-${round}`,
          systemUuid: `edge-${round}`,
          serialNumber: "SN",
          macAddresses: [],
          tpmEkSha256: null,
          tpmEkProven: false,
        },
        csrSha256: randomBytes(32).toString("hex"),
        credential: { joinTokenId: "test-token" },
        actor: "test",
        now: created,
        ttlSeconds: 60,
      });
      const expiry = request.expiresAt;
      // the approval is made a millisecond before the expiry, retention runs at
      // it; either may start a little later, so both orders happen
      const later = <T>(run: () => Promise<T>) => new Promise((resolve) => setTimeout(resolve, Math.random() * 6)).then(run);
      const [approval, pass] = await Promise.allSettled([
        later(() =>
          approveJoinRequest({ db, pool, requestId: request.id, ttlSeconds: 3600, actor: "test", now: new Date(expiry.getTime() - 1) }),
        ),
        later(() => runRetention({ db, now: expiry, settings, tenantId: world.tenantId })),
      ]);
      expect(pass.status).toBe("fulfilled");
      const stored = await storedRequest(request.id);
      const types = await eventTypesOf(request.id);
      if (approval.status === "fulfilled") {
        expect(stored.state).toBe("approved");
        expect(types).toEqual(["security.join-request.created", "security.join-request.approved"]);
        outcomes.approved++;
      } else {
        expect(approval.reason).toBeInstanceOf(ApiError);
        expect((approval.reason as ApiError).code).toBe("INVALID_STATE");
        expect(stored.state).toBe("expired");
        expect(types).toEqual(["security.join-request.created", EXPIRED]);
        outcomes.expired++;
      }
    }
    console.info("approve vs retention at the edge, 25 rounds:", outcomes);
    expect(outcomes.approved + outcomes.expired).toBe(25);
  });
});

describe("deleting old requests and their events", () => {
  it("deletes decided requests after the window and not before; keeps their events for their own window, then deletes them with their deliveries", async () => {
    const { world, subscriptionId } = await webhookWorld("http://127.0.0.1:9/never");
    const db = await getDb();
    const ids = {
      rejected: await makeRequest(world, { poolId: world.pools.a, outcome: "rejected" }),
      consumed: await makeRequest(world, { poolId: world.pools.a, outcome: "consumed" }),
      expired: await makeRequest(world, { poolId: world.pools.a, outcome: "expired" }),
      live: await makeRequest(world, { poolId: world.pools.a }),
    };
    await enqueueDeliveries({ db, now: new Date(), tenantId: world.tenantId });
    const deliveriesBefore = await db.webhookDelivery.count({ where: { subscriptionId } });
    expect(deliveriesBefore).toBe(7); // created ×4, rejected, approved, consumed
    const t0 = Date.now();
    const exists = async (id: string) => (await db.joinRequest.count({ where: { id } })) === 1;

    // day 29: the live request has expired (marked now), nothing is old enough to go
    expect(await retain(world, new Date(t0 + 29 * DAY))).toMatchObject({ marked: 2, deletedRequests: 0, deletedEvents: 0 });
    for (const id of Object.values(ids)) expect(await exists(id)).toBe(true);

    // day 32: all four are decided and last changed more than 30 days ago
    expect(await retain(world, new Date(t0 + 32 * DAY))).toMatchObject({ marked: 0, deletedRequests: 4, deletedEvents: 0 });
    for (const id of Object.values(ids)) {
      expect(await exists(id)).toBe(false);
      expect((await eventsOf(id)).length).toBeGreaterThan(0);
    }
    const events = await db.event.count({ where: { tenantId: world.tenantId } });

    // day 89: the events are still within their 90 days
    expect((await retain(world, new Date(t0 + 89 * DAY))).deletedEvents).toBe(0);
    // day 91: the events written at t0 go, with their deliveries; the two .expired
    // events retention wrote on day 29 stay until day 119
    const day91 = await retain(world, new Date(t0 + 91 * DAY));
    expect(day91.deletedEvents).toBe(events - 2);
    const left = await db.event.findMany({ where: { tenantId: world.tenantId } });
    expect(left.map((event) => event.type)).toEqual([EXPIRED, EXPIRED]);
    expect(await db.webhookDelivery.count({ where: { subscriptionId, eventId: { notIn: left.map((event) => event.id) } } })).toBe(0);
    expect((await retain(world, new Date(t0 + 120 * DAY))).deletedEvents).toBe(2);
  });

  it("a request that still exists keeps its whole timeline, however old its events", async () => {
    const world = await createWorld();
    const id = await makeRequest(world, { poolId: world.pools.a, outcome: "rejected" });
    const types = await eventTypesOf(id);
    const db = await getDb();
    // a long request window: the request outlives its events' window
    await runRetention({
      db,
      now: new Date(Date.now() + 200 * DAY),
      settings: { retentionDays: 365, eventRetentionDays: 90, inventoryRetentionDays: 365 },
      tenantId: world.tenantId,
    });
    expect(await eventTypesOf(id)).toEqual(types);
  });
});
