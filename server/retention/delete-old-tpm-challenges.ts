import "server-only";
import { Prisma } from "../db/generated/client";
import type { Db } from "../db/client";

const BATCH = 500;
/** Kept a day past their expiry, so a refused activation in the log can still be looked up. */
export const TPM_CHALLENGE_KEEP_MS = 86_400_000;

/**
 * Deletes credential-activation challenges (SPEC F1) a day after they
 * expired, used or not: an expired challenge can answer nothing, and each
 * join into a TPM pool makes one.
 */
export async function deleteOldTpmChallenges(input: { db: Db; now: Date; tenantId?: string }): Promise<number> {
  const { db, tenantId } = input;
  const cutoff = new Date(input.now.getTime() - TPM_CHALLENGE_KEEP_MS);
  let deleted = 0;
  for (;;) {
    const count = await db.$executeRaw`
      DELETE FROM tpm_challenges WHERE id IN (
        SELECT id FROM tpm_challenges
        WHERE expires_at < ${cutoff}
          ${tenantId ? Prisma.sql`AND tenant_id = ${tenantId}` : Prisma.empty}
        LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED)`;
    deleted += count;
    if (count < BATCH) return deleted;
  }
}
