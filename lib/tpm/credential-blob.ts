import { createCipheriv, createDecipheriv, createHmac, timingSafeEqual } from "node:crypto";
import { EK_NAME_HASH } from "./credential-seed";
import { kdfa } from "./kdf";
import { TpmFormatError } from "./tpm-format-error";
import { TpmReader } from "./tpm-reader";
import { tpm2b, unwrapTpm2b } from "./tpm2b";

// TPM2B_ID_OBJECT (Part 1 §24.5-24.6): the secret as a TPM2B_DIGEST,
// encrypted with a key bound to the object's Name, behind an HMAC over the
// ciphertext and the Name. A TPM that holds no object of that Name computes
// another HMAC and refuses, which is what ties the secret to the AK.

/** The default EK templates' symmetric: AES-128 in CFB mode with a zero IV. */
const CIPHER = "aes-128-cfb";
const SYM_KEY_BITS = 128;
const DIGEST_BYTES = 32;
/** TPM2B_ID_OBJECT's buffer is sizeof(TPMS_ID_OBJECT): a TPM2B_DIGEST (2 + 64) plus one (2 + 64). */
const MAX_ID_OBJECT = 132;

function keys(seed: Buffer, objectName: Buffer): { symKey: Buffer; hmacKey: Buffer } {
  return {
    symKey: kdfa(EK_NAME_HASH, seed, "STORAGE", objectName, Buffer.alloc(0), SYM_KEY_BITS),
    hmacKey: kdfa(EK_NAME_HASH, seed, "INTEGRITY", Buffer.alloc(0), Buffer.alloc(0), DIGEST_BYTES * 8),
  };
}

function integrity(hmacKey: Buffer, encIdentity: Buffer, objectName: Buffer): Buffer {
  return createHmac(EK_NAME_HASH, hmacKey).update(encIdentity).update(objectName).digest();
}

/** The credential blob, with its 2-byte size prefix. */
export function sealCredential(seed: Buffer, objectName: Buffer, secret: Buffer): Buffer {
  const { symKey, hmacKey } = keys(seed, objectName);
  const cipher = createCipheriv(CIPHER, symKey, Buffer.alloc(16));
  const encIdentity = Buffer.concat([cipher.update(tpm2b(secret)), cipher.final()]);
  return tpm2b(Buffer.concat([tpm2b(integrity(hmacKey, encIdentity, objectName)), encIdentity]));
}

/** The secret in a credential blob (with its size prefix), if the blob was made for `objectName` with this seed. */
export function openCredential(seed: Buffer, objectName: Buffer, credentialBlob: Buffer): Buffer {
  const idObject = unwrapTpm2b(credentialBlob, "the credential blob", MAX_ID_OBJECT);
  const reader = new TpmReader(idObject, "the credential blob");
  const claimed = reader.sized("its integrity HMAC", 64);
  const encIdentity = reader.take(idObject.length - reader.position, "its encrypted secret");
  const { symKey, hmacKey } = keys(seed, objectName);
  const expected = integrity(hmacKey, encIdentity, objectName);
  if (claimed.length !== expected.length || !timingSafeEqual(claimed, expected)) {
    throw new TpmFormatError("the credential blob fails its integrity check: it was made for another key or TPM, or altered");
  }
  const decipher = createDecipheriv(CIPHER, symKey, Buffer.alloc(16));
  const plain = Buffer.concat([decipher.update(encIdentity), decipher.final()]);
  return unwrapTpm2b(plain, "the decrypted credential", 64);
}
