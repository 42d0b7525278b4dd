import "server-only";
import type { Db, Tx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { isUniqueViolation } from "../db/unique-violation";
import { writeRows } from "../db/write-statement";
import { refuseCredential, type JoinCredential } from "./join-credential";

// Per credential kind: where its uses are recorded, and what "live" means for it
// (a join token always expires; a site enrollment key may not).
const TABLES = {
  "join-token": { uses: "join_token_uses", usesKey: "token_id", credentials: "join_tokens", mayNotExpire: false },
  "site-enrollment-key": { uses: "enrollment_key_uses", usesKey: "key_id", credentials: "site_enrollment_keys", mayNotExpire: true },
} as const;

/**
 * Counts a join credential's use for a CSR: once per distinct CSR, and only
 * while the credential has uses left, so at most maxUses distinct CSRs ever
 * get through (SPEC B5; site enrollment keys alike since F4). A credential
 * with no uses left for a new CSR is refused like any invalid one.
 *
 * One statement (countUseSql) that increments and records together or not
 * at all, so it holds without a transaction around it. Given a transaction's
 * client it is part of that transaction: the deferral and the TPM challenge
 * count there, so a join the flood guard refuses uses nothing. Given getDb's
 * client it is a transaction of its own: the admission counts this way just
 * before its writes, because the credential's row is the one every join of a
 * boot storm shares and inside the admission's transaction its lock was held
 * across our round trip to COMMIT, which made the storm's joins take turns
 * (bench: boot storm, pg_stat_activity). A use counted this way stays counted
 * if the writes after it fail; the CSR's retry is not counted again.
 */
export async function countJoinCredentialUse(client: Db | Tx, credential: JoinCredential, csrSha256: string, now: Date): Promise<void> {
  let result;
  try {
    [result] = await writeRows<{ counted: boolean; countedBefore: boolean }>(client, countUseSql(credential, csrSha256, now));
  } catch (error) {
    // The same CSR counted concurrently and committed first: our increment is
    // undone with our statement. In a transaction the join reads again; on
    // its own, asking once more finds the CSR counted.
    if (!isUniqueViolation(error) || !("$transaction" in client)) throw error;
    [result] = await writeRows<{ counted: boolean; countedBefore: boolean }>(client, countUseSql(credential, csrSha256, now));
  }
  if (!result!.counted && !result!.countedBefore) throw refuseCredential(credential.actor, "exhausted");
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

/**
 * The increment first, then the CSR's use row, inserted only when the
 * increment happened: a refused count writes nothing, even on its own (a use
 * row without its increment would let that CSR through a spent credential).
 * Two first counts of one CSR at once both pass NOT EXISTS; the later one
 * waits on the credential's row, increments, and fails on the use row's key
 * (unique), which undoes its increment.
 */
function countUseSql(credential: JoinCredential, csrSha256: string, now: Date): Prisma.Sql {
  const table = TABLES[credential.kind];
  const uses = Prisma.raw(table.uses);
  const usesKey = Prisma.raw(table.usesKey);
  const unexpired = table.mayNotExpire ? Prisma.sql`(expires_at IS NULL OR expires_at > ${now})` : Prisma.sql`expires_at > ${now}`;
  return Prisma.sql`
    WITH counted AS (
      UPDATE ${Prisma.raw(table.credentials)} SET uses = uses + 1
      WHERE id = ${credential.id} AND uses < max_uses AND revoked_at IS NULL AND ${unexpired}
        AND NOT EXISTS (SELECT 1 FROM ${uses} WHERE ${usesKey} = ${credential.id} AND csr_sha256 = ${csrSha256})
      RETURNING id
    ), recorded AS (
      INSERT INTO ${uses} (${usesKey}, csr_sha256, used_at) SELECT id, ${csrSha256}::text, ${now}::timestamptz FROM counted
      RETURNING 1
    )
    SELECT EXISTS (SELECT 1 FROM recorded) AS counted,
      EXISTS (SELECT 1 FROM ${uses} WHERE ${usesKey} = ${credential.id} AND csr_sha256 = ${csrSha256}) AS "countedBefore"`;
}
