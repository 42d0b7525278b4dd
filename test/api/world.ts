import { randomBytes } from "node:crypto";
import { getDb } from "@/server/db/client";
import { hashSecret } from "@/server/auth/credentials";
import { newId } from "@/lib/ids";
import { createJoinRequest } from "@/server/join-requests/create-join-request";
import { approveJoinRequest } from "@/server/join-requests/approve-join-request";
import { rejectJoinRequest } from "@/server/join-requests/reject-join-request";
import { consumeApproval } from "@/server/join-requests/consume-approval";
import { findPool } from "@/server/places/find-pool";
import type { Role } from "@/server/auth/roles";
import type { JoinRequestReason } from "@/lib/join-requests/join-request-json";

// Each test file builds its own tenant with random names, so files run in
// parallel without seeing each other's requests.

const suffix = () => randomBytes(4).toString("hex");

export interface World {
  tenantId: string;
  siteId: string;
  otherSiteId: string;
  pools: { a: string; b: string; archived: string; otherSite: string };
  keys: { admin: string; viewer: string; poolAdminA: string; revoked: string; noGrants: string };
  other: { tenantId: string; siteId: string; poolId: string; admin: string };
}

export async function createServiceKey(
  tenantId: string,
  grants: { tenantId: string; poolId: string | null; role: Role }[],
  revoked = false,
) {
  const db = await getDb();
  const id = `k${suffix()}${suffix()}`;
  const secret = randomBytes(16).toString("base64url");
  await db.serviceKey.create({
    data: {
      id,
      tenantId,
      name: `test key ${id}`,
      secretHash: hashSecret(secret),
      revokedAt: revoked ? new Date() : null,
      grants: { create: grants.map((grant) => ({ id: newId("grant"), ...grant })) },
    },
  });
  return `bcsk_${id}.${secret}`;
}

async function createTenant(tenantId: string, sites: string[], pools: { id: string; siteId: string; archived?: boolean }[]) {
  const db = await getDb();
  await db.tenant.create({ data: { id: tenantId, name: tenantId } });
  for (const siteId of sites) await db.site.create({ data: { id: siteId, tenantId, name: siteId } });
  for (const pool of pools) {
    await db.pool.create({
      data: { id: pool.id, tenantId, siteId: pool.siteId, name: pool.id, archivedAt: pool.archived ? new Date() : null },
    });
  }
}

export async function createWorld(): Promise<World> {
  const s = suffix();
  const tenantId = `t-${s}`;
  const siteId = `site-${s}`;
  const otherSiteId = `site2-${s}`;
  const pools = { a: `pa-${s}`, b: `pb-${s}`, archived: `parch-${s}`, otherSite: `pother-${s}` };
  await createTenant(
    tenantId,
    [siteId, otherSiteId],
    [
      { id: pools.a, siteId },
      { id: pools.b, siteId },
      { id: pools.archived, siteId, archived: true },
      { id: pools.otherSite, siteId: otherSiteId },
    ],
  );
  const other = { tenantId: `o-${s}`, siteId: `osite-${s}`, poolId: `po-${s}` };
  await createTenant(other.tenantId, [other.siteId], [{ id: other.poolId, siteId: other.siteId }]);

  const keys = {
    admin: await createServiceKey(tenantId, [{ tenantId, poolId: null, role: "pool_admin" }]),
    viewer: await createServiceKey(tenantId, [{ tenantId, poolId: null, role: "pool_viewer" }]),
    poolAdminA: await createServiceKey(tenantId, [{ tenantId, poolId: pools.a, role: "pool_admin" }]),
    revoked: await createServiceKey(tenantId, [{ tenantId, poolId: null, role: "pool_admin" }], true),
    noGrants: await createServiceKey(tenantId, []),
  };
  const otherAdmin = await createServiceKey(other.tenantId, [{ tenantId: other.tenantId, poolId: null, role: "pool_admin" }]);
  return { tenantId, siteId, otherSiteId, pools, keys, other: { ...other, admin: otherAdmin } };
}

export interface RequestSpec {
  /** null: an unclaimed request of `siteId` (default the world's site) */
  poolId: string | null;
  siteId?: string;
  tenantId?: string;
  /** where it should end up; `expired` means pending past its expiry */
  outcome?: "pending" | "approved" | "rejected" | "consumed" | "expired" | "approved-expired";
  reasons?: JoinRequestReason[];
  /** when it was made (default: now, or 2 h ago for the expired outcomes) */
  at?: Date;
  ttlSeconds?: number;
}

/** Makes a join request through the domain functions and returns its id. */
export async function makeRequest(world: World, spec: RequestSpec): Promise<string> {
  const db = await getDb();
  const outcome = spec.outcome ?? "pending";
  const past = outcome === "expired" || outcome === "approved-expired";
  const now = spec.at ?? (past ? new Date(Date.now() - 2 * 3600_000) : new Date());
  const tenantId = spec.tenantId ?? world.tenantId;
  const n = suffix();
  const request = await createJoinRequest({
    db,
    tenantId,
    siteId: spec.siteId ?? world.siteId,
    poolId: spec.poolId,
    reasons: spec.reasons ?? ["unknown-to-discovery"],
    machine: {
      hostname: `host-${n}.test`,
      systemUuid: `0a0b0c0d-${n.slice(0, 4)}-4000-8000-${n}0000`,
      serialNumber: `SN-${n}`,
      macAddresses: [`02:00:${n.slice(0, 2)}:${n.slice(2, 4)}:${n.slice(4, 6)}:${n.slice(6, 8)}`],
      tpmEkSha256: null,
      tpmEkProven: false,
    },
    csrSha256: randomBytes(32).toString("hex"),
    credential: { joinTokenId: "test-token" },
    actor: "test",
    now,
    ttlSeconds: spec.ttlSeconds ?? (outcome === "expired" ? 60 : undefined),
  });
  if (outcome === "pending" || outcome === "expired") return request.id;
  const pool = await findPool(db, tenantId, spec.poolId ?? world.pools.a);
  const decidedAt = new Date(now.getTime() + 1000);
  if (outcome === "rejected") {
    await rejectJoinRequest({ db, pool, requestId: request.id, actor: "test", now: decidedAt });
    return request.id;
  }
  await approveJoinRequest({ db, pool, requestId: request.id, ttlSeconds: past ? 60 : 3600, actor: "test", now: decidedAt });
  if (outcome === "consumed") await consumeApproval({ db, pool, requestId: request.id, actor: "test", now: decidedAt });
  return request.id;
}

export async function eventsOf(requestId: string) {
  const db = await getDb();
  return db.event.findMany({ where: { requestId }, orderBy: { id: "asc" } });
}

export async function storedRequest(requestId: string) {
  const db = await getDb();
  return db.joinRequest.findUniqueOrThrow({ where: { id: requestId } });
}

/** One more pool in the world's site (or `siteId`), e.g. one to archive later. */
export async function addPool(world: World, options: { siteId?: string; archived?: boolean } = {}): Promise<string> {
  const db = await getDb();
  const id = `px-${suffix()}`;
  await db.pool.create({
    data: {
      id,
      tenantId: world.tenantId,
      siteId: options.siteId ?? world.siteId,
      name: id,
      archivedAt: options.archived ? new Date() : null,
    },
  });
  return id;
}

export async function archivePool(poolId: string): Promise<void> {
  const db = await getDb();
  await db.pool.update({ where: { id: poolId }, data: { archivedAt: new Date() } });
}

/** `count` requests of one spec, made one after the other (so their ids ascend). */
export async function makeRequests(world: World, count: number, spec: RequestSpec): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await makeRequest(world, spec));
  return ids;
}

/** The types of a request's stored events, oldest first. */
export async function eventTypesOf(requestId: string): Promise<string[]> {
  return (await eventsOf(requestId)).map((event) => event.type);
}
