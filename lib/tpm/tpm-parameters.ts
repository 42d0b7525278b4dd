import { TPM_ALG, hex16 } from "./tpm-constants";
import { TpmFormatError } from "./tpm-format-error";
import type { TpmReader } from "./tpm-reader";

// The algorithm-dependent parts of TPMT_PUBLIC's parameters (Part 2 §11-12):
// each is a selector followed by details whose shape the selector decides, so
// an unknown selector leaves the rest unreadable and must be refused.

export interface SymmetricDefinition {
  algorithm: number;
  keyBits: number;
  mode: number;
}

export interface HashScheme {
  scheme: number;
  hashAlg: number | null;
}

const HASH_ALGS = new Set([TPM_ALG.SHA1, TPM_ALG.SHA256, TPM_ALG.SHA384, TPM_ALG.SHA512, 0x0012, 0x0027, 0x0028, 0x0029]);
const BLOCK_CIPHERS = new Set<number>([TPM_ALG.AES, TPM_ALG.SM4, TPM_ALG.CAMELLIA]);
const CIPHER_MODES = new Set([0x0040, 0x0041, 0x0042, 0x0043, 0x0044]);
const KDFS = new Set<number>([TPM_ALG.MGF1, TPM_ALG.KDF1_SP800_56A, TPM_ALG.KDF2, TPM_ALG.KDF1_SP800_108]);
/** Schemes whose details are one hash algorithm; RSAES has none, ECDAA adds a count. */
const RSA_HASH_SCHEMES = new Set<number>([TPM_ALG.RSASSA, TPM_ALG.RSAPSS, TPM_ALG.OAEP]);
const ECC_HASH_SCHEMES = new Set<number>([TPM_ALG.ECDSA, TPM_ALG.ECDH, TPM_ALG.ECSCHNORR, TPM_ALG.SM2, TPM_ALG.ECMQV]);

/** TPMT_SYM_DEF_OBJECT: null for TPM_ALG_NULL (a key that protects no children). */
export function readSymmetric(reader: TpmReader, what: string): SymmetricDefinition | null {
  const algorithm = reader.u16("symmetric algorithm");
  if (algorithm === TPM_ALG.NULL) return null;
  if (!BLOCK_CIPHERS.has(algorithm)) throw new TpmFormatError(`${what}: unknown symmetric algorithm ${hex16(algorithm)}`);
  const keyBits = reader.u16("symmetric key size");
  if (![128, 192, 256].includes(keyBits)) throw new TpmFormatError(`${what}: symmetric key size ${keyBits} bits is not a valid one`);
  const mode = reader.u16("symmetric mode");
  if (!CIPHER_MODES.has(mode)) throw new TpmFormatError(`${what}: unknown symmetric mode ${hex16(mode)}`);
  return { algorithm, keyBits, mode };
}

export function readScheme(reader: TpmReader, what: string, keyType: "rsa" | "ecc"): HashScheme | null {
  const scheme = reader.u16("scheme");
  if (scheme === TPM_ALG.NULL) return null;
  if (keyType === "rsa" && scheme === TPM_ALG.RSAES) return { scheme, hashAlg: null };
  const hashed = keyType === "rsa" ? RSA_HASH_SCHEMES : ECC_HASH_SCHEMES;
  if (!hashed.has(scheme) && !(keyType === "ecc" && scheme === TPM_ALG.ECDAA)) {
    throw new TpmFormatError(`${what}: unknown ${keyType.toUpperCase()} scheme ${hex16(scheme)}`);
  }
  const hashAlg = readHashAlg(reader, what, "scheme hash algorithm");
  if (scheme === TPM_ALG.ECDAA) reader.u16("ECDAA count");
  return { scheme, hashAlg };
}

/** TPMT_KDF_SCHEME of an ECC key. */
export function readKdf(reader: TpmReader, what: string): HashScheme | null {
  const scheme = reader.u16("kdf scheme");
  if (scheme === TPM_ALG.NULL) return null;
  if (!KDFS.has(scheme)) throw new TpmFormatError(`${what}: unknown key derivation scheme ${hex16(scheme)}`);
  return { scheme, hashAlg: readHashAlg(reader, what, "kdf hash algorithm") };
}

function readHashAlg(reader: TpmReader, what: string, field: string): number {
  const hashAlg = reader.u16(field);
  if (!HASH_ALGS.has(hashAlg)) throw new TpmFormatError(`${what}: unknown ${field} ${hex16(hashAlg)}`);
  return hashAlg;
}
