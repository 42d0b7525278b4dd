import {
  constants,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
  type KeyObject,
} from "node:crypto";
import { p256Coordinates } from "./encode-tpm2b-public";
import { kdfe } from "./kdf";
import { TpmFormatError } from "./tpm-format-error";
import { TpmReader } from "./tpm-reader";
import { tpm2b } from "./tpm2b";

// The seed of credential protection (Part 1 §24.4), shared with the EK's
// holder only: RSA-OAEP encrypted to an RSA EK, or agreed by ECDH with an
// ECC EK. The PEM of an EK does not say its template, so we assume the TCG
// default EK templates (RSA 2048 / NIST P-256, nameAlg SHA-256, AES-128-CFB)
// and refuse keys those templates cannot have made.

/** The EK's nameAlg under the default templates: the seed is one digest long. */
export const EK_NAME_HASH = "sha256";
const SEED_BYTES = 32;
/** Both sides use "IDENTITY" with its terminating NUL (Part 1 §24.4 / §11.4.10). */
const LABEL = "IDENTITY";
const OAEP_LABEL = Buffer.from(`${LABEL}\0`, "ascii");

export type EkKind = "rsa" | "ecc";

export function ekKind(key: KeyObject): EkKind {
  if (key.asymmetricKeyType === "rsa") {
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits !== 2048)
      throw new TpmFormatError(`an RSA endorsement key of ${bits} bits is not supported (only 2048, the TCG default template)`);
    return "rsa";
  }
  if (key.asymmetricKeyType === "ec") {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve !== "prime256v1")
      throw new TpmFormatError(`an ECC endorsement key on curve ${curve ?? "unknown"} is not supported (only NIST P-256)`);
    return "ecc";
  }
  throw new TpmFormatError(
    `an endorsement key of type ${key.asymmetricKeyType ?? "secret"} is not supported (only RSA 2048 and ECC P-256)`,
  );
}

/** A fresh seed and its encryption to the EK, as TPM2B_ENCRYPTED_SECRET's contents (no size prefix). */
export function encryptSeed(ekPublicKey: KeyObject): { seed: Buffer; encryptedSeed: Buffer } {
  if (ekKind(ekPublicKey) === "rsa") {
    const seed = randomBytes(SEED_BYTES);
    const encryptedSeed = publicEncrypt(
      { key: ekPublicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: EK_NAME_HASH, oaepLabel: OAEP_LABEL },
      seed,
    );
    return { seed, encryptedSeed };
  }
  const ephemeral = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const point = p256Coordinates(ephemeral.publicKey);
  // Node's ECDH output is the shared point's x-coordinate, padded to 32 bytes: the Z of KDFe.
  const z = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: ekPublicKey });
  const seed = kdfe(EK_NAME_HASH, z, LABEL, point.x, p256Coordinates(ekPublicKey).x, SEED_BYTES * 8);
  return { seed, encryptedSeed: Buffer.concat([tpm2b(point.x), tpm2b(point.y)]) };
}

/** The EK holder's side: the seed back from TPM2B_ENCRYPTED_SECRET's contents. */
export function decryptSeed(ekPrivateKey: KeyObject, encryptedSeed: Buffer): Buffer {
  if (ekKind(ekPrivateKey) === "rsa") {
    try {
      return privateDecrypt(
        { key: ekPrivateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: EK_NAME_HASH, oaepLabel: OAEP_LABEL },
        encryptedSeed,
      );
    } catch {
      throw new TpmFormatError("the encrypted secret does not decrypt with this endorsement key");
    }
  }
  const reader = new TpmReader(encryptedSeed, "the encrypted secret (an ECC point)");
  const x = reader.sized("x", 32);
  const y = reader.sized("y", 32);
  reader.expectEnd();
  const ephemeral = pointKey(x, y);
  const z = diffieHellman({ privateKey: ekPrivateKey, publicKey: ephemeral });
  // KDFe takes the x-coordinates as they were sent, which is what a TPM hashes.
  return kdfe(EK_NAME_HASH, z, LABEL, x, p256Coordinates(ekPrivateKey).x, SEED_BYTES * 8);
}

function pointKey(x: Buffer, y: Buffer): KeyObject {
  const pad = (coordinate: Buffer) => Buffer.concat([Buffer.alloc(32 - coordinate.length), coordinate]).toString("base64url");
  try {
    return createPublicKey({ key: { kty: "EC", crv: "P-256", x: pad(x), y: pad(y) }, format: "jwk" });
  } catch {
    throw new TpmFormatError("the encrypted secret's ECC point is not on NIST P-256");
  }
}
