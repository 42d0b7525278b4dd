import "server-only";
import type { Db, Tx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { refuseCredential, type JoinCredential } from "./join-credential";

// Per credential kind: where its uses are recorded, and what "live" means for it
// (a join token always expires; a site enrollment key may not).
const TABLES = {
  "join-token": { uses: "join_token_uses", usesKey: "token_id", credentials: "join_tokens", mayNotExpire: false },
  "site-enrollment-key": { uses: "enrollment_key_uses", usesKey: "key_id", credentials: "site_enrollment_keys", mayNotExpire: true },
} as const;

/**
 * Counts a join credential's use for a CSR, in the caller's transaction: once
 * per distinct CSR (a use row, inserted if absent), and only while the
 * credential has uses left (a conditional increment; concurrent joins queue
 * on its row, so at most maxUses distinct CSRs ever get through). Both in one
 * statement, the caller's last before COMMIT, so the credential's row (the one
 * every join of a boot storm shares) is locked as briefly as it can be. Join
 * tokens and, since SPEC F4, site enrollment keys are counted alike. A
 * credential with no uses left is refused like any invalid one, and the
 * transaction rolls back.
 */
export async function countJoinCredentialUse(tx: Tx, credential: JoinCredential, csrSha256: string, now: Date): Promise<void> {
  const [counted] = await tx.$queryRaw<{ firstUse: boolean; counted: boolean }[]>(countUseSql(credential, csrSha256, now));
  if (counted!.firstUse && !counted!.counted) throw refuseCredential(credential.actor, "exhausted");
}

/**
 * SPEC G4: a credential with no uses left gets no work done, a TPM challenge
 * included, so the join asks this first (read only; the count above is what
 * holds under concurrency). A CSR the credential already counted may still
 * retry (B5: uses are counted once per distinct CSR). Revocation and expiry
 * were checked when the credential was authenticated.
 */
export async function checkJoinCredentialUsesLeft(db: Db, credential: JoinCredential, csrSha256: string): Promise<void> {
  const table = TABLES[credential.kind];
  const [row] = await db.$queryRaw<{ usable: boolean }[]>`
    SELECT uses < max_uses OR EXISTS (
      SELECT 1 FROM ${Prisma.raw(table.uses)} WHERE ${Prisma.raw(table.usesKey)} = ${credential.id} AND csr_sha256 = ${csrSha256}
    ) AS usable
    FROM ${Prisma.raw(table.credentials)} WHERE id = ${credential.id}`;
  if (!row?.usable) throw refuseCredential(credential.actor, "exhausted");
}

function countUseSql(credential: JoinCredential, csrSha256: string, now: Date): Prisma.Sql {
  const table = TABLES[credential.kind];
  const unexpired = table.mayNotExpire ? Prisma.sql`(expires_at IS NULL OR expires_at > ${now})` : Prisma.sql`expires_at > ${now}`;
  return Prisma.sql`
    WITH first_use AS (
      INSERT INTO ${Prisma.raw(table.uses)} (${Prisma.raw(table.usesKey)}, csr_sha256, used_at) VALUES (${credential.id}, ${csrSha256}, ${now})
      ON CONFLICT DO NOTHING RETURNING 1
    ), counted AS (
      UPDATE ${Prisma.raw(table.credentials)} SET uses = uses + 1
      WHERE id = ${credential.id} AND EXISTS (SELECT 1 FROM first_use) AND uses < max_uses AND revoked_at IS NULL AND ${unexpired}
      RETURNING 1
    )
    SELECT EXISTS (SELECT 1 FROM first_use) AS "firstUse", EXISTS (SELECT 1 FROM counted) AS counted`;
}
