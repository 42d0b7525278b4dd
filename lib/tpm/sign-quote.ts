import { createHash, sign, type KeyObject } from "node:crypto";
import { encodePcrSelection } from "./pcr-selection";
import { TPM_ALG } from "./tpm-constants";
import { TPM_GENERATED_VALUE, TPM_ST_ATTEST_QUOTE } from "./tpms-attest";
import { tpm2b } from "./tpm2b";

// TPM2_Quote played in software (SPEC I3: "the seed's software TPM also
// quotes"): the TPMS_ATTEST and TPMT_SIGNATURE a TPM would return for a P-256
// ECDSA AK, byte for byte in tpm2_quote's layout, so verifyQuote reads the
// demo's quotes exactly as it reads a real TPM's.

export interface SignQuoteInput {
  akPrivateKey: KeyObject;
  /** stands in for the AK's qualified name (a verifier cannot check it: the signature is what binds the AK) */
  akName: Buffer;
  nonce: Buffer;
  /** SHA-256 PCR indices, ascending */
  indices: readonly number[];
  /** the SHA-256 bank: index → 32-byte value */
  bank: readonly Buffer[];
  /** milliseconds the TPM has been running (TPMS_CLOCK_INFO.clock) */
  clock: bigint;
}

/** swtpm's firmware version, so the demo's quotes look like the tests' ones. */
const FIRMWARE_VERSION = 0x2019102300163636n;

export function signQuote({ akPrivateKey, akName, nonce, indices, bank, clock }: SignQuoteInput): { attest: Buffer; signature: Buffer } {
  const pcrDigest = createHash("sha256")
    .update(Buffer.concat(indices.map((index) => bank[index]!)))
    .digest();
  const header = Buffer.alloc(6);
  header.writeUInt32BE(TPM_GENERATED_VALUE, 0);
  header.writeUInt16BE(TPM_ST_ATTEST_QUOTE, 4);
  const clockInfo = Buffer.alloc(8 + 4 + 4 + 1 + 8);
  clockInfo.writeBigUInt64BE(clock, 0);
  clockInfo.writeUInt8(1, 16); // safe: the clock has not gone backwards
  clockInfo.writeBigUInt64BE(FIRMWARE_VERSION, 17);
  const attest = Buffer.concat([
    header,
    tpm2b(akName),
    tpm2b(nonce),
    clockInfo,
    encodePcrSelection({ hashAlg: TPM_ALG.SHA256, indices: [...indices] }),
    tpm2b(pcrDigest),
  ]);
  const rs = sign("sha256", attest, { key: akPrivateKey, dsaEncoding: "ieee-p1363" });
  const algorithms = Buffer.alloc(4);
  algorithms.writeUInt16BE(TPM_ALG.ECDSA, 0);
  algorithms.writeUInt16BE(TPM_ALG.SHA256, 2);
  return { attest, signature: Buffer.concat([algorithms, tpm2b(rs.subarray(0, 32)), tpm2b(rs.subarray(32))]) };
}
