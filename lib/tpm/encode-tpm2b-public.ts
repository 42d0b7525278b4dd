import type { KeyObject } from "node:crypto";
import { TPM_ALG, TPM_ECC_NIST_P256, TPMA_OBJECT } from "./tpm-constants";
import { TpmFormatError } from "./tpm-format-error";

/** What tpm2_createak gives an AK: a restricted signing key born in, and bound to, its TPM. */
export const AK_ATTRIBUTES =
  TPMA_OBJECT.fixedTPM |
  TPMA_OBJECT.fixedParent |
  TPMA_OBJECT.sensitiveDataOrigin |
  TPMA_OBJECT.userWithAuth |
  TPMA_OBJECT.restricted |
  TPMA_OBJECT.sign;

/**
 * The TPM2B_PUBLIC of an ECC P-256 attestation key (nameAlg SHA-256, ECDSA
 * SHA-256, no symmetric or kdf), laid out as tpm2_createak lays it out. The
 * software TPM uses it for its AK; tests pass other `objectAttributes` to make
 * keys a server must refuse.
 */
export function encodeTpm2bPublic({
  publicKey,
  objectAttributes = AK_ATTRIBUTES,
}: {
  publicKey: KeyObject;
  objectAttributes?: number;
}): Buffer {
  const { x, y } = p256Coordinates(publicKey);
  const area = Buffer.alloc(2 + 2 + 4 + 2 + 2 + 4 + 2 + 2 + 2 + x.length + 2 + y.length);
  let at = 0;
  const u16 = (value: number) => (at = area.writeUInt16BE(value, at));
  u16(TPM_ALG.ECC);
  u16(TPM_ALG.SHA256);
  at = area.writeUInt32BE(objectAttributes >>> 0, at);
  u16(0); // authPolicy: empty
  u16(TPM_ALG.NULL); // symmetric: a signing key protects no children
  u16(TPM_ALG.ECDSA);
  u16(TPM_ALG.SHA256);
  u16(TPM_ECC_NIST_P256);
  u16(TPM_ALG.NULL); // kdf
  u16(x.length);
  at += x.copy(area, at);
  u16(y.length);
  y.copy(area, at);
  const size = Buffer.alloc(2);
  size.writeUInt16BE(area.length);
  return Buffer.concat([size, area]);
}

/** The affine coordinates of a P-256 public key, each 32 bytes big-endian. */
export function p256Coordinates(key: KeyObject): { x: Buffer; y: Buffer } {
  if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1") {
    throw new TpmFormatError(
      `expected an ECC NIST P-256 key, got ${key.asymmetricKeyType ?? "a secret key"} ${key.asymmetricKeyDetails?.namedCurve ?? ""}`.trim(),
    );
  }
  const jwk = key.export({ format: "jwk" });
  if (!jwk.x || !jwk.y) throw new TpmFormatError("the ECC key has no public point");
  return { x: Buffer.from(jwk.x, "base64url"), y: Buffer.from(jwk.y, "base64url") };
}
