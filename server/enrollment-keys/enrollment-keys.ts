import "server-only";
import { randomBytes } from "node:crypto";
import type { Db, Tx } from "../db/client";
import { generateSecret, hashSecret } from "../auth/credentials";

// Site enrollment keys (`bcse_<id>.<secret>`): a join through one has no pool
// of its own (SPEC B5). Managed by operators with `npm run admin -- enrollment-keys`;
// only SHA-256 of the secret is stored, the bearer is shown once.

export interface EnrollmentKeyInfo {
  id: string;
  tenantId: string;
  siteId: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** distinct CSRs it may admit or defer (SPEC F4) */
  maxUses: number;
  uses: number;
}

/** An operator who names no limit gets this many uses, like the demo keys. */
export const DEFAULT_ENROLLMENT_KEY_MAX_USES = 1000;

const PUBLIC_COLUMNS = {
  id: true,
  tenantId: true,
  siteId: true,
  createdAt: true,
  expiresAt: true,
  revokedAt: true,
  maxUses: true,
  uses: true,
} as const;

export class EnrollmentKeyError extends Error {
  override name = "EnrollmentKeyError";
}

async function checkSite(db: Db | Tx, tenantId: string, siteId: string): Promise<void> {
  const site = await db.site.findFirst({ where: { id: siteId, tenantId }, select: { id: true } });
  if (!site) throw new EnrollmentKeyError(`site ${siteId} not found in tenant ${tenantId}`);
}

export async function createEnrollmentKey(input: {
  db: Db | Tx;
  tenantId: string;
  siteId: string;
  ttlSeconds?: number;
  maxUses?: number;
  now: Date;
}): Promise<EnrollmentKeyInfo & { bearer: string }> {
  const { db, tenantId, siteId, now } = input;
  await checkSite(db, tenantId, siteId);
  const id = randomBytes(12).toString("hex");
  const secret = generateSecret();
  const key = await db.siteEnrollmentKey.create({
    data: {
      id,
      tenantId,
      siteId,
      secretHash: hashSecret(secret),
      maxUses: input.maxUses ?? DEFAULT_ENROLLMENT_KEY_MAX_USES,
      createdAt: now,
      expiresAt: input.ttlSeconds ? new Date(now.getTime() + input.ttlSeconds * 1000) : null,
    },
    select: PUBLIC_COLUMNS,
  });
  return { ...key, bearer: `bcse_${id}.${secret}` };
}

export async function listEnrollmentKeys(input: { db: Db; tenantId: string; siteId: string }): Promise<EnrollmentKeyInfo[]> {
  await checkSite(input.db, input.tenantId, input.siteId);
  return input.db.siteEnrollmentKey.findMany({
    where: { tenantId: input.tenantId, siteId: input.siteId },
    select: PUBLIC_COLUMNS,
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
  });
}

/** Revokes a key of the site; revoking it again leaves it as it is. */
export async function revokeEnrollmentKey(input: {
  db: Db | Tx;
  tenantId: string;
  siteId: string;
  id: string;
  now: Date;
}): Promise<EnrollmentKeyInfo> {
  const { db, tenantId, siteId, id, now } = input;
  const where = { id, tenantId, siteId };
  await db.siteEnrollmentKey.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: now } });
  const key = await db.siteEnrollmentKey.findFirst({ where, select: PUBLIC_COLUMNS });
  if (!key) throw new EnrollmentKeyError(`enrollment key ${id} not found in ${tenantId}/${siteId}`);
  return key;
}
