import { createHash, createPublicKey, type KeyObject } from "node:crypto";
import { PemFormatError, readPem } from "../pem/read-pem";
import { ekKind } from "./credential-seed";
import { TpmFormatError } from "./tpm-format-error";

/**
 * An endorsement key read once (SPEC G1): the hash that is shown and checked
 * against the allow-list, the key the credential is made for and the key that
 * is recorded are all this one value, never a second reading of the PEM.
 */
export interface EndorsementKey {
  /** the DER SubjectPublicKeyInfo, exactly as sent */
  der: Buffer;
  /** SHA-256 of `der`, lowercase hex (SPEC B5's `machine.tpmEkSha256`) */
  sha256: string;
  keyObject: KeyObject;
}

/**
 * Reads a PEM `PUBLIC KEY` that must be an RSA-2048 or NIST P-256 key (the
 * TCG default EK templates) in its one DER encoding. Throws PemFormatError
 * with a message fit to show under the field that carried it.
 */
export function readEndorsementKey(pem: string): EndorsementKey {
  const der = readPem(pem, "PUBLIC KEY");
  let keyObject: KeyObject;
  try {
    keyObject = createPublicKey({ key: der, format: "der", type: "spki" });
  } catch {
    throw new PemFormatError("is not a DER SubjectPublicKeyInfo public key");
  }
  // OpenSSL ignores bytes after the key; a second reader might not.
  if (!keyObject.export({ format: "der", type: "spki" }).equals(der))
    throw new PemFormatError("is a public key with trailing or non-canonical DER bytes");
  try {
    ekKind(keyObject);
  } catch (error) {
    if (error instanceof TpmFormatError) throw new PemFormatError(error.message);
    throw error;
  }
  return { der, sha256: createHash("sha256").update(der).digest("hex"), keyObject };
}
