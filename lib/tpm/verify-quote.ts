import { createHash } from "node:crypto";
import { describePcrSelection } from "./pcr-selection";
import { readPcrValues } from "./pcr-values";
import { TPM_ALG } from "./tpm-constants";
import { TPM_GENERATED_VALUE, TPM_ST_ATTEST_QUOTE, parseQuoteAttest, readAttestHeader, type QuoteAttest } from "./tpms-attest";
import { SIGNATURE_HASHES, parseTpmSignature, verifyTpmSignature } from "./tpmt-signature";
import type { TpmPublic } from "./tpm2b-public";

// SPEC I2: a quote is believed when the AK this join proved signed it, it is
// a TPM-generated quote, it carries our nonce, it covers exactly the PCRs we
// asked for, and the values the machine reports hash to what the TPM attested.
// Each check fails on its own, named (Keylime's habit): the request shows why.
// Bytes that are not a quote at all are TpmFormatError (400 on the field);
// a well-formed quote that fails a check is QuoteRejectedError (403).

export type QuoteRejection =
  "not-tpm-generated" | "not-a-quote" | "bad-signature" | "wrong-nonce" | "wrong-pcr-selection" | "pcr-digest-mismatch";

export class QuoteRejectedError extends Error {
  constructor(
    readonly reason: QuoteRejection,
    message: string,
  ) {
    super(message);
    this.name = "QuoteRejectedError";
  }
}

export interface VerifyQuoteInput {
  /** the AK's TPM2B_PUBLIC as the join proved it (F1), parsed */
  ak: TpmPublic;
  /** TPMS_ATTEST, as `tpm2_quote --message` writes it */
  attest: Uint8Array;
  /** TPMT_SIGNATURE, as `tpm2_quote --signature` writes it */
  signature: Uint8Array;
  /** the challenge's nonce: the quote's qualifying data */
  nonce: Uint8Array;
  /** the SHA-256 PCR indices the challenge asked for */
  pcrSelection: readonly number[];
  /** the machine's PCR values: index → hex SHA-256 */
  pcrs: Readonly<Record<string, string>>;
}

export interface VerifiedQuote {
  /** the attested values, index → lowercase hex, in selection order */
  pcrs: Record<string, string>;
  clockInfo: QuoteAttest["clockInfo"];
  firmwareVersion: bigint;
}

export function verifyQuote({ ak, attest, signature, nonce, pcrSelection, pcrs }: VerifyQuoteInput): VerifiedQuote {
  const wanted = [...new Set(pcrSelection)].sort((a, b) => a - b);
  const values = readPcrValues(pcrs, wanted);
  const header = readAttestHeader(attest);
  if (header.magic !== TPM_GENERATED_VALUE)
    throw new QuoteRejectedError(
      "not-tpm-generated",
      `the attestation's magic is 0x${header.magic.toString(16)}, not TPM_GENERATED_VALUE: a TPM did not make it`,
    );
  if (header.type !== TPM_ST_ATTEST_QUOTE)
    throw new QuoteRejectedError("not-a-quote", `the attestation is of type 0x${header.type.toString(16)}, not a quote (0x8018)`);
  const quote = parseQuoteAttest(attest);
  const parsedSignature = parseTpmSignature(signature);

  if (!verifyTpmSignature({ ak, message: attest, signature: parsedSignature }))
    throw new QuoteRejectedError("bad-signature", "the quote's signature does not verify with the attestation key this join proved");
  if (!quote.extraData.equals(Buffer.from(nonce)))
    throw new QuoteRejectedError(
      "wrong-nonce",
      "the quote does not carry this challenge's nonce (a quote made for another challenge, or replayed)",
    );
  const attested = quote.pcrSelection.filter((bank) => bank.indices.length > 0);
  const asked = { hashAlg: TPM_ALG.SHA256, indices: wanted };
  if (attested.length !== 1 || attested[0]!.hashAlg !== TPM_ALG.SHA256 || attested[0]!.indices.join() !== wanted.join())
    throw new QuoteRejectedError(
      "wrong-pcr-selection",
      `the quote covers ${describePcrSelection(quote.pcrSelection)}, but the challenge asked for ${describePcrSelection([asked])}`,
    );
  const digest = createHash(SIGNATURE_HASHES.get(parsedSignature.hashAlg)!)
    .update(Buffer.concat(wanted.map((index) => values.get(index)!)))
    .digest();
  if (!digest.equals(quote.pcrDigest))
    throw new QuoteRejectedError(
      "pcr-digest-mismatch",
      "the PCR values sent are not the ones the TPM quoted (their digest differs from the attested one)",
    );

  return {
    pcrs: Object.fromEntries(wanted.map((index) => [String(index), values.get(index)!.toString("hex")])),
    clockInfo: quote.clockInfo,
    firmwareVersion: quote.firmwareVersion,
  };
}
