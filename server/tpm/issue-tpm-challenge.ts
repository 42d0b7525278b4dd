import "server-only";
import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../db/client";
import { ApiError } from "../api/errors";
import { newId } from "@/lib/ids";
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
}

/**
 * TPM2_MakeCredential for the presented EK and AK Name over a fresh 32-byte
 * secret, stored as a challenge bound to the join's CSR (only the secret's
 * SHA-256 is kept). Nothing else is recorded: no request, no token use.
 */
export async function issueTpmChallenge(input: {
  db: Db;
  tenantId: string;
  csrSha256: string;
  ekPublicKeyPem: string;
  ekSha256: string;
  akName: Buffer;
  now: Date;
}): Promise<Challenge> {
  const { db, now } = input;
  const secret = randomBytes(32);
  let made;
  try {
    made = makeCredential({ ekPublicKey: input.ekPublicKeyPem, objectName: input.akName, secret });
  } catch (error) {
    if (!(error instanceof TpmFormatError)) throw error;
    throw new ApiError("INVALID_ARGUMENT", `tpm.ekPublicKey ${error.message}`, [{ field: "tpm.ekPublicKey", message: error.message }]);
  }
  const challenge = await db.tpmChallenge.create({
    data: {
      id: newId("tpmc", now.getTime()),
      tenantId: input.tenantId,
      csrSha256: input.csrSha256,
      ekSha256: input.ekSha256,
      akName: input.akName.toString("hex"),
      secretHash: createHash("sha256").update(secret).digest(),
      createdAt: now,
      expiresAt: new Date(now.getTime() + TPM_CHALLENGE_TTL_SECONDS * 1000),
    },
  });
  return {
    status: "challenge",
    challengeId: challenge.id,
    credentialBlob: made.credentialBlob.toString("base64"),
    encryptedSecret: made.encryptedSecret.toString("base64"),
    expiresAt: challenge.expiresAt.toISOString(),
  };
}
