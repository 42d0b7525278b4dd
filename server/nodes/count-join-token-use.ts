import "server-only";
import type { Tx } from "../db/client";
import { refuseCredential, type JoinCredential } from "./join-credential";

/**
 * Counts a join token's use for a CSR, in the caller's transaction: once per
 * distinct CSR (a JoinTokenUse row, inserted if absent), and only while the
 * token has uses left (a conditional increment; concurrent joins queue on the
 * token's row, so at most maxUses distinct CSRs ever get through). A token
 * with no uses left is refused like any invalid credential, and the
 * transaction rolls back. Site enrollment keys are not counted.
 */
export async function countJoinTokenUse(tx: Tx, credential: JoinCredential, csrSha256: string, now: Date): Promise<void> {
  if (credential.kind !== "join-token") return;
  const { count: firstUse } = await tx.joinTokenUse.createMany({
    data: [{ tokenId: credential.id, csrSha256, usedAt: now }],
    skipDuplicates: true,
  });
  if (firstUse === 0) return; // this CSR was counted before: a retry
  const { count } = await tx.joinToken.updateMany({
    where: {
      id: credential.id,
      uses: { lt: tx.joinToken.fields.maxUses },
      revokedAt: null,
      expiresAt: { gt: now },
    },
    data: { uses: { increment: 1 } },
  });
  if (count === 0) throw refuseCredential(credential.actor, "exhausted");
}
