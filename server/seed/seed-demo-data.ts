import "server-only";
import type { Db } from "../db/client";
import { hashSecret } from "../auth/credentials";
import { hashPassword } from "../auth/password";
import { newId } from "@/lib/ids";
import {
  DEMO_DISCOVERED_MACHINES, DEMO_ENROLLMENT_KEYS, DEMO_JOIN_TOKEN_MAX_USES, DEMO_JOIN_TOKEN_TTL_MS, DEMO_JOIN_TOKENS,
  DEMO_PASSWORD, DEMO_POOLS, DEMO_SERVICE_KEYS, DEMO_SITES, DEMO_TENANTS, DEMO_TPM_ALLOWED_KEYS, DEMO_USERS,
} from "./demo-data";
import { seedDemoJoinRequests } from "./demo-join-requests";

/**
 * Creates SPEC Part C's demo data. Idempotent: what exists is left as it is
 * (a demo request someone has since decided stays decided), what is missing
 * is created.
 */
export async function seedDemoData(db: Db, now: Date = new Date()): Promise<{ joinRequestsCreated: number }> {
  for (const tenant of DEMO_TENANTS) {
    await db.tenant.upsert({ where: { id: tenant.id }, update: {}, create: tenant });
  }
  for (const site of DEMO_SITES) {
    await db.site.upsert({ where: { id: site.id }, update: {}, create: site });
  }
  for (const { archived, ...pool } of DEMO_POOLS) {
    const archivedAt = archived ? now : null;
    await db.pool.upsert({ where: { id: pool.id }, update: {}, create: { ...pool, archivedAt } });
  }
  for (const user of DEMO_USERS) {
    if (await db.user.findUnique({ where: { email: user.email }, select: { id: true } })) continue;
    await db.user.create({
      data: {
        id: newId("usr"),
        email: user.email,
        name: user.name,
        passwordHash: await hashPassword(DEMO_PASSWORD),
        grants: { create: user.grants.map((grant) => ({ id: newId("grant"), ...grant })) },
      },
    });
  }
  for (const key of DEMO_SERVICE_KEYS) {
    if (await db.serviceKey.findUnique({ where: { id: key.id }, select: { id: true } })) continue;
    await db.serviceKey.create({
      data: {
        id: key.id,
        tenantId: key.tenantId,
        name: key.name,
        secretHash: hashSecret(key.secret),
        grants: { create: [{ id: newId("grant"), ...key.grant }] },
      },
    });
  }
  for (const { secret, ...token } of DEMO_JOIN_TOKENS) {
    await db.joinToken.upsert({
      where: { id: token.id },
      update: {},
      create: {
        ...token,
        secretHash: hashSecret(secret),
        maxUses: DEMO_JOIN_TOKEN_MAX_USES,
        expiresAt: new Date(now.getTime() + DEMO_JOIN_TOKEN_TTL_MS),
        createdBy: "seed",
      },
    });
  }
  for (const { secret, ...key } of DEMO_ENROLLMENT_KEYS) {
    await db.siteEnrollmentKey.upsert({ where: { id: key.id }, update: {}, create: { ...key, secretHash: hashSecret(secret) } });
  }
  for (const machine of DEMO_DISCOVERED_MACHINES) {
    await db.discoveredMachine.upsert({
      where: { siteId_systemUuid: { siteId: machine.siteId, systemUuid: machine.systemUuid } },
      update: {},
      create: { id: newId("disc"), ...machine },
    });
  }
  for (const key of DEMO_TPM_ALLOWED_KEYS) {
    await db.tpmAllowedKey.upsert({
      where: { tenantId_ekSha256: { tenantId: key.tenantId, ekSha256: key.ekSha256 } },
      update: {},
      create: { id: newId("tpmk"), ...key },
    });
  }
  return { joinRequestsCreated: await seedDemoJoinRequests(db, now) };
}
