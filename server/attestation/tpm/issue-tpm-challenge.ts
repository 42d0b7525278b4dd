import "server-only";
import { createHash, randomBytes } from "node:crypto";
import type { Db, Tx } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import { ApiError } from "../../api/errors";
import { newId } from "@/lib/ids";
import type { EndorsementKey } from "@/lib/tpm/endorsement-key";
import { makeCredential } from "@/lib/tpm/make-credential";
import { TpmFormatError } from "@/lib/tpm/tpm-format-error";

/** How long the machine has to activate the credential and join again (SPEC F1). */
export const TPM_CHALLENGE_TTL_SECONDS = 5 * 60;

export interface Challenge {
  status: "challenge";
  challengeId: string;
  /** TPM2B_ID_OBJECT, base64 with its size prefix */
  credentialBlob: string;
  /** TPM2B_ENCRYPTED_SECRET, base64 with its size prefix */
  encryptedSecret: string;
  expiresAt: string;
  /** SPEC I2, in a pool with boot states: the quote's qualifying data, 32 random bytes in base64 */
  nonce?: string;
  /** SPEC I2: the SHA-256 PCR indices the quote must cover, ascending */
  pcrSelection?: number[];
}

/**
 * TPM2_MakeCredential for the presented EK (as read once, SPEC G1) and AK
 * Name over a fresh 32-byte secret, stored as a challenge bound to the join's
 * CSR (only the secret's SHA-256 is kept). SPEC G4: the challenge is the
 * credential's use for this CSR, counted in the same transaction (so no
 * credential makes more challenges than it has uses; the CSR's later
 * admission or deferral finds it counted), and it voids the CSR's earlier
 * challenges. No request is recorded. SPEC I2: with a PCR selection (the
 * pool's boot states name PCRs) the challenge also asks for a quote of them
 * over a fresh nonce, kept with it for the retry.
 */
export async function issueTpmChallenge(input: {
  db: Db;
  /** counts the join credential's use for this CSR, in the challenge's transaction */
  countUse: (tx: Tx) => Promise<void>;
  tenantId: string;
  csrSha256: string;
  ek: EndorsementKey;
  akName: Buffer;
  /** SPEC I2: the PCRs a quote must cover; empty: no quote asked */
  pcrSelection: number[];
  now: Date;
}): Promise<Challenge> {
  const { db, now } = input;
  const secret = randomBytes(32);
  let made;
  try {
    made = makeCredential({ ekPublicKey: input.ek, objectName: input.akName, secret });
  } catch (error) {
    if (!(error instanceof TpmFormatError)) throw error;
    throw new ApiError("INVALID_ARGUMENT", `tpm.ekPublicKey ${error.message}`, [{ field: "tpm.ekPublicKey", message: error.message }]);
  }
  const quoteNonce = input.pcrSelection.length > 0 ? randomBytes(32) : null;
  const id = newId("tpmc", now.getTime());
  const challenge = await db.$transaction(async (tx) => {
    // One challenge of a CSR at a time (SPEC G4: a new one voids the earlier):
    // held to COMMIT, so the voiding below sees every challenge committed before.
    await tx.$executeRaw(challengeLockSql(input.tenantId, input.csrSha256));
    const created = await tx.tpmChallenge.create({
      data: {
        id,
        tenantId: input.tenantId,
        csrSha256: input.csrSha256,
        ekSha256: input.ek.sha256,
        akName: input.akName.toString("hex"),
        secretHash: createHash("sha256").update(secret).digest(),
        createdAt: now,
        expiresAt: new Date(now.getTime() + TPM_CHALLENGE_TTL_SECONDS * 1000),
        quoteNonce,
        pcrSelection: quoteNonce ? input.pcrSelection : [],
      },
    });
    await input.countUse(tx);
    // After the count, under the CSR's lock taken above: a concurrent
    // challenge of this CSR waits for our COMMIT and then voids ours.
    await tx.tpmChallenge.updateMany({
      where: { tenantId: input.tenantId, csrSha256: input.csrSha256, id: { not: id }, usedAt: null, voidedAt: null },
      data: { voidedAt: now },
    });
    return created;
  });
  return {
    status: "challenge",
    challengeId: challenge.id,
    credentialBlob: made.credentialBlob.toString("base64"),
    encryptedSecret: made.encryptedSecret.toString("base64"),
    expiresAt: challenge.expiresAt.toISOString(),
    ...(quoteNonce ? { nonce: quoteNonce.toString("base64"), pcrSelection: input.pcrSelection } : {}),
  };
}

/** The lock a CSR's challenge holds to its COMMIT: challenges of one CSR take turns. */
export function challengeLockSql(tenantId: string, csrSha256: string): Prisma.Sql {
  return Prisma.sql`SELECT pg_advisory_xact_lock(hashtext(${`tpm-challenge:${tenantId}:${csrSha256}`}))`;
}
