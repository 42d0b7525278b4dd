import "server-only";
import type { Tx } from "../db/client";
import { refuseCredential, type JoinCredential } from "./join-credential";

/**
 * Counts a join credential's use for a CSR, in the caller's transaction: once
 * per distinct CSR (a use row, inserted if absent), and only while the
 * credential has uses left (a conditional increment; concurrent joins queue
 * on its row, so at most maxUses distinct CSRs ever get through). Join tokens
 * and, since SPEC F4, site enrollment keys are counted alike. A credential
 * with no uses left is refused like any invalid one, and the transaction
 * rolls back.
 */
export async function countJoinCredentialUse(tx: Tx, credential: JoinCredential, csrSha256: string, now: Date): Promise<void> {
  const live = { revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
  let count: number;
  if (credential.kind === "join-token") {
    const { count: firstUse } = await tx.joinTokenUse.createMany({
      data: [{ tokenId: credential.id, csrSha256, usedAt: now }],
      skipDuplicates: true,
    });
    if (firstUse === 0) return; // this CSR was counted before: a retry
    ({ count } = await tx.joinToken.updateMany({
      where: { id: credential.id, uses: { lt: tx.joinToken.fields.maxUses }, revokedAt: null, expiresAt: { gt: now } },
      data: { uses: { increment: 1 } },
    }));
  } else {
    const { count: firstUse } = await tx.enrollmentKeyUse.createMany({
      data: [{ keyId: credential.id, csrSha256, usedAt: now }],
      skipDuplicates: true,
    });
    if (firstUse === 0) return;
    ({ count } = await tx.siteEnrollmentKey.updateMany({
      where: { id: credential.id, uses: { lt: tx.siteEnrollmentKey.fields.maxUses }, ...live },
      data: { uses: { increment: 1 } },
    }));
  }
  if (count === 0) throw refuseCredential(credential.actor, "exhausted");
}
