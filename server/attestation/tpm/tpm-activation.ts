import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import type { Db, Tx } from "../../db/client";
import { ApiError } from "../../api/errors";
import { log } from "../../log";

// The second step of the TPM join (SPEC F1): the machine sends back the secret
// its TPM recovered with TPM2_ActivateCredential. Only then is its EK proven.

export interface ActivationClaim {
  challengeId: string;
  secret: Buffer;
  tenantId: string;
  csrSha256: string;
  ekSha256: string;
  akName: Buffer;
}

// One answer for every way an activation can fail; the cause goes to the log.
const refused = (challengeId: string, cause: string) => {
  log.warn("tpm activation refused", { challenge: challengeId, cause });
  return new ApiError(
    "PERMISSION_DENIED",
    "the TPM activation does not answer a live challenge of this join; join again without tpm.activation for a new challenge",
  );
};

/** SPEC I2: the quote an activated challenge asked for (null: none). */
export interface QuoteAsked {
  nonce: Buffer;
  pcrSelection: number[];
}

/**
 * Checks the claim against its challenge, reading only: wrong, expired, used,
 * voided, or made for another CSR, EK or AK → 403. Answers the quote the
 * challenge asked for, if any.
 */
export async function verifyTpmActivation(db: Db, claim: ActivationClaim, now: Date): Promise<QuoteAsked | null> {
  const challenge = await db.tpmChallenge.findUnique({ where: { id: claim.challengeId } });
  if (!challenge || challenge.tenantId !== claim.tenantId) throw refused(claim.challengeId, "unknown");
  if (challenge.usedAt) throw refused(claim.challengeId, "already used");
  if (challenge.voidedAt) throw refused(claim.challengeId, "voided by a newer challenge for this CSR");
  if (challenge.expiresAt.getTime() <= now.getTime()) throw refused(claim.challengeId, "expired");
  if (challenge.csrSha256 !== claim.csrSha256) throw refused(claim.challengeId, "another CSR");
  if (challenge.ekSha256 !== claim.ekSha256 || challenge.akName !== claim.akName.toString("hex"))
    throw refused(claim.challengeId, "another EK or AK");
  const presented = createHash("sha256").update(claim.secret).digest();
  if (!timingSafeEqual(presented, Buffer.from(challenge.secretHash))) throw refused(claim.challengeId, "wrong secret");
  return challenge.quoteNonce ? { nonce: Buffer.from(challenge.quoteNonce), pcrSelection: challenge.pcrSelection } : null;
}

/**
 * Uses the challenge up, in the transaction that records what the proven join
 * decided (its request or its node): one conditional update, so of concurrent
 * joins answering one challenge exactly one records anything.
 */
export async function useTpmChallenge(tx: Tx, challengeId: string, now: Date): Promise<void> {
  const { count } = await tx.tpmChallenge.updateMany({
    where: { id: challengeId, usedAt: null, voidedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  if (count === 0) throw refused(challengeId, "used concurrently");
}
