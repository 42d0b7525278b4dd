import { constants, createPublicKey, verify, type KeyObject } from "node:crypto";
import { TPM_ALG, hex16 } from "./tpm-constants";
import { TpmFormatError } from "./tpm-format-error";
import { TpmReader } from "./tpm-reader";
import type { TpmPublic } from "./tpm2b-public";

// TPMT_SIGNATURE (Part 2 §11.3.4), what `tpm2_quote --signature` writes, and
// its check with the AK's public key by node:crypto: ECDSA's r and s go to
// node as IEEE P1363 (r ‖ s, each the curve's size), RSASSA and RSA-PSS as
// the signature block itself.

export interface TpmSignature {
  sigAlg: number;
  hashAlg: number;
  /** RSA: the signature block; ECDSA: r ‖ s, each padded to the curve's coordinate size by verifyTpmSignature */
  rsa?: Buffer;
  ecdsa?: { r: Buffer; s: Buffer };
}

const WHAT = "TPMT_SIGNATURE";
/** The hashes a signature may use, with node's names; SHA-1 is refused (collisions are practical). */
export const SIGNATURE_HASHES: ReadonlyMap<number, string> = new Map([
  [TPM_ALG.SHA256, "sha256"],
  [TPM_ALG.SHA384, "sha384"],
  [TPM_ALG.SHA512, "sha512"],
]);
const CURVES = new Map([
  [0x0003, { crv: "P-256", size: 32 }],
  [0x0004, { crv: "P-384", size: 48 }],
  [0x0005, { crv: "P-521", size: 66 }],
]);

export function parseTpmSignature(bytes: Uint8Array): TpmSignature {
  const reader = new TpmReader(bytes, WHAT);
  const sigAlg = reader.u16("sigAlg");
  if (sigAlg !== TPM_ALG.ECDSA && sigAlg !== TPM_ALG.RSASSA && sigAlg !== TPM_ALG.RSAPSS) {
    throw new TpmFormatError(`${WHAT}: signature algorithm ${hex16(sigAlg)} is not supported (ECDSA, RSASSA or RSA-PSS)`);
  }
  const hashAlg = reader.u16("hash algorithm");
  if (!SIGNATURE_HASHES.has(hashAlg)) {
    const why = hashAlg === TPM_ALG.SHA1 ? "SHA-1 is too weak" : `${hex16(hashAlg)} is unknown`;
    throw new TpmFormatError(`${WHAT}: hash algorithm not supported (${why}; use SHA-256 or stronger)`);
  }
  const signature: TpmSignature =
    sigAlg === TPM_ALG.ECDSA
      ? { sigAlg, hashAlg, ecdsa: { r: reader.sized("ECDSA r", 66), s: reader.sized("ECDSA s", 66) } }
      : { sigAlg, hashAlg, rsa: reader.sized("RSA signature", 512) };
  reader.expectEnd();
  return signature;
}

/** The AK as a node:crypto key. */
export function tpmPublicKey(pub: TpmPublic): KeyObject {
  if (pub.type === "rsa") {
    const exponent = Buffer.alloc(4);
    exponent.writeUInt32BE(pub.exponent === 0 ? 65537 : pub.exponent);
    const e = exponent.subarray(exponent.findIndex((byte) => byte !== 0));
    return createPublicKey({ key: { kty: "RSA", n: pub.modulus.toString("base64url"), e: e.toString("base64url") }, format: "jwk" });
  }
  const curve = CURVES.get(pub.curveId);
  if (!curve) throw new TpmFormatError(`the AK's ECC curve ${hex16(pub.curveId)} is not one node:crypto can verify with`);
  const pad = (coordinate: Buffer) => leftPad(coordinate, curve.size, "the AK's ECC point").toString("base64url");
  return createPublicKey({ key: { kty: "EC", crv: curve.crv, x: pad(pub.x), y: pad(pub.y) }, format: "jwk" });
}

/** Whether `signature` is the AK's over `message`. Throws TpmFormatError when the kinds cannot match (an RSA signature from an ECC AK). */
export function verifyTpmSignature({ ak, message, signature }: { ak: TpmPublic; message: Uint8Array; signature: TpmSignature }): boolean {
  const hash = SIGNATURE_HASHES.get(signature.hashAlg)!;
  const key = tpmPublicKey(ak);
  if (signature.ecdsa) {
    if (ak.type !== "ecc") throw new TpmFormatError(`${WHAT} is ECDSA but the AK is an RSA key`);
    const size = CURVES.get(ak.curveId)!.size;
    const rs = Buffer.concat([leftPad(signature.ecdsa.r, size, "ECDSA r"), leftPad(signature.ecdsa.s, size, "ECDSA s")]);
    return verify(hash, message, { key, dsaEncoding: "ieee-p1363" }, rs);
  }
  if (ak.type !== "rsa") throw new TpmFormatError(`${WHAT} is an RSA signature but the AK is an ECC key`);
  const padding =
    signature.sigAlg === TPM_ALG.RSAPSS
      ? { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO }
      : { padding: constants.RSA_PKCS1_PADDING };
  return verify(hash, message, { key, ...padding }, signature.rsa!);
}

function leftPad(value: Buffer, size: number, what: string): Buffer {
  if (value.length > size) throw new TpmFormatError(`${what} is ${value.length} bytes, longer than the curve's ${size}`);
  return Buffer.concat([Buffer.alloc(size - value.length), value]);
}
