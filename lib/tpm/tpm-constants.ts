// TPM 2.0 Part 2 identifiers the credential flow meets (algorithm ids, curve
// ids, object attribute bits), named as the spec names them.

export const TPM_ALG = {
  RSA: 0x0001,
  SHA1: 0x0004,
  AES: 0x0006,
  MGF1: 0x0007,
  KEYEDHASH: 0x0008,
  SHA256: 0x000b,
  SHA384: 0x000c,
  SHA512: 0x000d,
  NULL: 0x0010,
  SM4: 0x0013,
  RSASSA: 0x0014,
  RSAES: 0x0015,
  RSAPSS: 0x0016,
  OAEP: 0x0017,
  ECDSA: 0x0018,
  ECDH: 0x0019,
  ECDAA: 0x001a,
  SM2: 0x001b,
  ECSCHNORR: 0x001c,
  ECMQV: 0x001d,
  KDF1_SP800_56A: 0x0020,
  KDF2: 0x0021,
  KDF1_SP800_108: 0x0022,
  ECC: 0x0023,
  CAMELLIA: 0x0026,
} as const;

export const TPM_ECC_NIST_P256 = 0x0003;

/** The name algorithms we accept, with what node:crypto calls them. SHA-1 is refused: Names made with it can be forged. */
export const NAME_ALGS: ReadonlyMap<number, { label: string; nodeHash: string; size: number }> = new Map([
  [TPM_ALG.SHA256, { label: "SHA-256", nodeHash: "sha256", size: 32 }],
  [TPM_ALG.SHA384, { label: "SHA-384", nodeHash: "sha384", size: 48 }],
]);

/** TPMA_OBJECT bits (Part 2 §8.3). */
export const TPMA_OBJECT = {
  fixedTPM: 1 << 1,
  fixedParent: 1 << 4,
  sensitiveDataOrigin: 1 << 5,
  userWithAuth: 1 << 6,
  restricted: 1 << 16,
  decrypt: 1 << 17,
  sign: 1 << 18,
} as const;

export function hex16(value: number): string {
  return `0x${value.toString(16).padStart(4, "0")}`;
}
