import { createPrivateKey, type KeyObject } from "node:crypto";
import { openCredential } from "./credential-blob";
import { decryptSeed } from "./credential-seed";
import { unwrapTpm2b } from "./tpm2b";

/** TPM2B_ENCRYPTED_SECRET holds at most sizeof(TPMU_ENCRYPTED_SECRET): an RSA-4096 ciphertext. */
const MAX_ENCRYPTED_SECRET = 512;

/**
 * TPM2_ActivateCredential done with the EK's private key in hand (the demo
 * EK, or a test's): the inverse of makeCredential. Throws TpmFormatError when
 * the blob was made for another Name or EK, or was altered, as a TPM refuses.
 * Both inputs carry their 2-byte size prefixes, as makeCredential returns them.
 */
export function activateCredential({
  ekPrivateKey,
  objectName,
  credentialBlob,
  encryptedSecret,
}: {
  ekPrivateKey: KeyObject | string;
  objectName: Buffer;
  credentialBlob: Buffer;
  encryptedSecret: Buffer;
}): Buffer {
  const key = typeof ekPrivateKey === "string" ? createPrivateKey(ekPrivateKey) : ekPrivateKey;
  const seed = decryptSeed(key, unwrapTpm2b(encryptedSecret, "the encrypted secret", MAX_ENCRYPTED_SECRET));
  return openCredential(seed, objectName, credentialBlob);
}
