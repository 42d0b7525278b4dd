import { z } from "zod";
import { optional } from "./fields";
import { base64 } from "./node-join";

// nodes/attest (SPEC I3): the daemon asks for a nonce (no body, or `{}`), then
// sends `quote`: TPM2_Quote by the AK its join proved, over the challenge's
// PCR selection with the nonce as qualifying data (what `tpm2_quote -q` makes).

/** TPMS_ATTEST of a quote over 24 PCRs is ~150 bytes; a TPMT_SIGNATURE of RSA-4096 ~520. */
export const QUOTE_PART_MAX_CHARACTERS = 2048;

export const quoteField = z.strictObject({
  attest: base64("TPMS_ATTEST (tpm2_quote --message)", QUOTE_PART_MAX_CHARACTERS),
  signature: base64("TPMT_SIGNATURE (tpm2_quote --signature)", QUOTE_PART_MAX_CHARACTERS),
  // shapes are read by verifyQuote (readPcrValues), which names what is wrong with them
  pcrs: z
    .record(z.string(), z.string(), { error: "must be an object of PCR index → hex SHA-256 value" })
    .refine((pcrs) => Object.keys(pcrs).length <= 24, "must hold at most 24 PCRs")
    .meta({ description: "the quoted PCRs: index → SHA-256 value in hex" }),
});

export const attestNodeInput = z.strictObject({ quote: optional(quoteField) });
export type AttestNodeInput = z.output<typeof attestNodeInput>;
