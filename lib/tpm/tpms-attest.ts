import { TpmFormatError } from "./tpm-format-error";
import { readPcrSelection, type PcrBankSelection } from "./pcr-selection";
import { TpmReader } from "./tpm-reader";

// TPMS_ATTEST (Part 2 §10.12.12) of a TPM2_Quote: what `tpm2_quote --message`
// writes and what the AK signs. Only a quote is read to its end; the header
// (magic, type) is read first so that another attestation, or bytes the TPM
// did not make, is refused as such rather than as a malformed quote.

/** TPM_GENERATED_VALUE: only the TPM writes this at the start of what it signs with a restricted key. */
export const TPM_GENERATED_VALUE = 0xff544347;
export const TPM_ST_ATTEST_QUOTE = 0x8018;

export interface QuoteAttest {
  magic: number;
  type: number;
  /** the AK's qualified name */
  qualifiedSigner: Buffer;
  /** the qualifying data the caller gave (`tpm2_quote -q`): our nonce */
  extraData: Buffer;
  clockInfo: { clock: bigint; resetCount: number; restartCount: number; safe: boolean };
  firmwareVersion: bigint;
  pcrSelection: PcrBankSelection[];
  pcrDigest: Buffer;
}

const WHAT = "TPMS_ATTEST";
/** sizeof(TPMU_NAME) and sizeof(TPMT_HA): a hash algorithm id and a SHA-512 digest. */
const MAX_NAME = 2 + 64;
const MAX_DIGEST = 64;

/** The magic and type: enough to tell a quote from anything else. */
export function readAttestHeader(bytes: Uint8Array): { magic: number; type: number } {
  const reader = new TpmReader(bytes, WHAT);
  return { magic: reader.u32("magic"), type: reader.u16("type") };
}

export function parseQuoteAttest(bytes: Uint8Array): QuoteAttest {
  const reader = new TpmReader(bytes, WHAT);
  const magic = reader.u32("magic");
  const type = reader.u16("type");
  const qualifiedSigner = reader.sized("qualifiedSigner", MAX_NAME);
  const extraData = reader.sized("extraData", MAX_DIGEST);
  const clock = reader.u64("clockInfo.clock");
  const resetCount = reader.u32("clockInfo.resetCount");
  const restartCount = reader.u32("clockInfo.restartCount");
  const safe = reader.u8("clockInfo.safe");
  if (safe > 1) throw new TpmFormatError(`${WHAT}: clockInfo.safe is ${safe}, not a yes or no`);
  const firmwareVersion = reader.u64("firmwareVersion");
  if (type !== TPM_ST_ATTEST_QUOTE) throw new TpmFormatError(`${WHAT} is not a quote (type 0x${type.toString(16)})`);
  const pcrSelection = readPcrSelection(reader, WHAT);
  const pcrDigest = reader.sized("pcrDigest", MAX_DIGEST);
  reader.expectEnd();
  return {
    magic,
    type,
    qualifiedSigner,
    extraData,
    clockInfo: { clock, resetCount, restartCount, safe: safe === 1 },
    firmwareVersion,
    pcrSelection,
    pcrDigest,
  };
}
