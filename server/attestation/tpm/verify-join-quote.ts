import "server-only";
import { ApiError } from "../../api/errors";
import { log } from "../../log";
import { parseTpm2bPublic } from "@/lib/tpm/tpm2b-public";
import { parseTpmSignature } from "@/lib/tpm/tpmt-signature";
import { TpmFormatError } from "@/lib/tpm/tpm-format-error";
import { QuoteRejectedError, verifyQuote } from "@/lib/tpm/verify-quote";
import type { JoinNodeInput } from "@/lib/validations/node-join";
import type { QuoteAsked } from "./tpm-activation";

type PresentedQuote = NonNullable<NonNullable<JoinNodeInput["tpm"]>["quote"]>;

const invalid = (field: string, message: string) => new ApiError("INVALID_ARGUMENT", `${field} ${message}`, [{ field, message }]);

/**
 * SPEC I2: the retry of a challenge that asked for a quote must carry one,
 * made by the AK this join proved (`akPublic`, whose Name the activation
 * checked against the challenge) over the challenge's selection and nonce.
 * Bytes that are not a quote are 400 naming the part; a well-formed quote
 * that fails a check is 403, as a failed activation is, recording nothing
 * (it is checked before anything is written). A quote nobody asked for is 400.
 * Answers the attested PCR values, or null when no quote was asked or sent.
 */
export function verifyJoinQuote(input: {
  asked: QuoteAsked | null;
  quote: PresentedQuote | undefined;
  akPublic: Buffer;
  challengeId: string;
}): Record<string, string> | null {
  const { asked, quote } = input;
  if (!asked) {
    if (quote) throw invalid("tpm.quote", "was not asked for: this join's challenge named no PCRs to quote");
    return null;
  }
  // Judged with the pool's policy (judge-boot.ts): required where the pool
  // requires a known boot; elsewhere the boot is simply not measured, so a
  // TPM join that predates Part I still joins a pool that only observes.
  if (!quote) return null;
  try {
    parseTpmSignature(quote.signature);
  } catch (error) {
    if (error instanceof TpmFormatError) throw invalid("tpm.quote.signature", `is not a TPMT_SIGNATURE: ${error.message}`);
    throw error;
  }
  try {
    const verified = verifyQuote({
      ak: parseTpm2bPublic(input.akPublic),
      attest: quote.attest,
      signature: quote.signature,
      nonce: asked.nonce,
      pcrSelection: asked.pcrSelection,
      pcrs: quote.pcrs,
    });
    return verified.pcrs;
  } catch (error) {
    if (error instanceof TpmFormatError) {
      if (error.message.startsWith("pcrs")) throw invalid("tpm.quote.pcrs", error.message.replace(/^pcrs:?\s*/, ""));
      throw invalid("tpm.quote.attest", `is not a TPM2_Quote attestation: ${error.message}`);
    }
    if (error instanceof QuoteRejectedError) {
      log.warn("tpm quote refused", { challenge: input.challengeId, cause: error.reason });
      throw new ApiError(
        "PERMISSION_DENIED",
        `the TPM quote is refused (${error.reason}): ${error.message}; join again for a new challenge`,
      );
    }
    throw error;
  }
}
