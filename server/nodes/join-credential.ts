import "server-only";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { readRows } from "../db/read-rows";
import { ApiError } from "../api/errors";
import { parseBearer, secretMatches, type BearerCredential } from "../auth/credentials";
import { log } from "../log";

// The machine's credential for the join (SPEC B5): a pool join token
// (`bcjt_<id>.<secret>`) or a site enrollment key (`bcse_<id>.<secret>`).

export type JoinCredential =
  | { kind: "join-token"; id: string; tenantId: string; poolId: string; actor: string }
  | { kind: "site-enrollment-key"; id: string; tenantId: string; siteId: string; actor: string };

export type RefusalCause = "unknown" | "wrong-secret" | "revoked" | "expired" | "exhausted";

// Unknown, wrong, revoked, expired and used-up credentials get this one
// answer, so a caller learns nothing about which; the cause goes to the log
// under the credential's id (never its secret).
export const UNIFORM_REFUSAL_MESSAGE = "the join credential is not valid";

export function refuseCredential(credentialId: string, cause: RefusalCause): ApiError {
  log.warn("join credential refused", { credential: credentialId, cause });
  return new ApiError("UNAUTHENTICATED", UNIFORM_REFUSAL_MESSAGE);
}

/**
 * Checks the bearer credential: it exists, the secret matches (in constant
 * time), it is not revoked or expired. A join token's uses are counted later,
 * once per distinct CSR (countJoinCredentialUse), so a retry of a CSR it already
 * counted still gets through.
 */
export async function authenticateJoinCredential(db: Db, request: Request, now: Date): Promise<JoinCredential> {
  const authorization = request.headers.get("authorization");
  const bearer = parseBearer(authorization);
  if (!bearer || bearer.prefix === "bcsk") {
    throw new ApiError(
      "UNAUTHENTICATED",
      authorization
        ? "invalid credentials: expected Authorization: Bearer bcjt_<id>.<secret> or bcse_<id>.<secret>"
        : "missing credentials: send Authorization: Bearer bcjt_<id>.<secret> or bcse_<id>.<secret>",
    );
  }
  return verifyJoinBearer(db, { ...bearer, prefix: bearer.prefix }, now);
}

/** The checks of authenticateJoinCredential on a parsed bearer (the seed joins with the demo credentials). */
export async function verifyJoinBearer(db: Db, bearer: BearerCredential & { prefix: "bcjt" | "bcse" }, now: Date): Promise<JoinCredential> {
  const actor = `${bearer.prefix}_${bearer.id}`;
  // Through pg (readRows): the first read of every join of a boot storm.
  if (bearer.prefix === "bcjt") {
    const [token] = await readRows<StoredCredential & { poolId: string }>(
      db,
      Prisma.sql`SELECT tenant_id AS "tenantId", pool_id AS "poolId", ${STORED_CREDENTIAL_COLUMNS} FROM join_tokens WHERE id = ${bearer.id}`,
    );
    checkCredential(actor, bearer.secret, token, now);
    return { kind: "join-token", id: bearer.id, tenantId: token!.tenantId, poolId: token!.poolId, actor };
  }
  const [key] = await readRows<StoredCredential & { siteId: string }>(
    db,
    Prisma.sql`SELECT tenant_id AS "tenantId", site_id AS "siteId", ${STORED_CREDENTIAL_COLUMNS} FROM site_enrollment_keys WHERE id = ${bearer.id}`,
  );
  checkCredential(actor, bearer.secret, key, now);
  return { kind: "site-enrollment-key", id: bearer.id, tenantId: key!.tenantId, siteId: key!.siteId, actor };
}

interface StoredCredential {
  tenantId: string;
  secretHash: Uint8Array;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

const STORED_CREDENTIAL_COLUMNS = Prisma.sql`secret_hash AS "secretHash", expires_at AS "expiresAt", revoked_at AS "revokedAt"`;

function checkCredential(actor: string, secret: string, stored: StoredCredential | undefined, now: Date): void {
  // Compared even when the id is unknown, so both take the same time.
  const matches = secretMatches(secret, stored?.secretHash);
  if (!stored) throw refuseCredential(actor, "unknown");
  if (!matches) throw refuseCredential(actor, "wrong-secret");
  if (stored.revokedAt) throw refuseCredential(actor, "revoked");
  if (stored.expiresAt && stored.expiresAt.getTime() <= now.getTime()) throw refuseCredential(actor, "expired");
}
