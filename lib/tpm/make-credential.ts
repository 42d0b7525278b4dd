import { sealCredential } from "./credential-blob";
import { encryptSeed } from "./credential-seed";
import type { EndorsementKey } from "./endorsement-key";
import { TpmFormatError } from "./tpm-format-error";
import { tpm2b } from "./tpm2b";

export interface MadeCredential {
  /** TPM2B_ID_OBJECT, with its 2-byte size prefix. */
  credentialBlob: Buffer;
  /** TPM2B_ENCRYPTED_SECRET, with its 2-byte size prefix. */
  encryptedSecret: Buffer;
}

/** A Name is a 2-byte algorithm id and a digest of at most 64 bytes (TPM2B_NAME). */
const MAX_NAME = 66;
/** TPM2_MakeCredential refuses a credential longer than a digest of the EK's nameAlg (SHA-256). */
const MAX_SECRET = 32;

/**
 * TPM2_MakeCredential without a TPM (Part 3 §12.6, Part 1 §24): protects
 * `secret` so that only the TPM holding this EK, and an object named
 * `objectName` in it, can recover it with TPM2_ActivateCredential. The EK is
 * assumed to come from a TCG default template (see credential-seed.ts). It
 * takes the key as read by readEndorsementKey, never a PEM: the key the
 * credential is made for is the one whose hash was checked (SPEC G1).
 */
export function makeCredential({
  ekPublicKey,
  objectName,
  secret,
}: {
  ekPublicKey: EndorsementKey;
  objectName: Buffer;
  secret: Buffer;
}): MadeCredential {
  if (objectName.length < 3 || objectName.length > MAX_NAME)
    throw new TpmFormatError(`an object Name of ${objectName.length} bytes is not a TPM Name`);
  if (secret.length === 0 || secret.length > MAX_SECRET)
    throw new TpmFormatError(`the credential secret must be 1 to ${MAX_SECRET} bytes, not ${secret.length}`);
  const { seed, encryptedSeed } = encryptSeed(ekPublicKey.keyObject);
  return { credentialBlob: sealCredential(seed, objectName, secret), encryptedSecret: tpm2b(encryptedSeed) };
}
