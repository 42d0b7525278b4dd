import { z } from "zod";
import { codePointLength, optional } from "./fields";

// The machine's join (SPEC B5): what the node daemon sends. Identifiers are
// kept as reported — placeholders and empty serials included — because the
// hardware attestor must see them; only their size and printability are
// checked here.

export const CSR_MAX_CHARACTERS = 16 * 1024;
export const EK_MAX_CHARACTERS = 8 * 1024;
/** An EK certificate is a few KiB; a chain of intermediates a few of those. */
export const EK_CERTIFICATE_MAX_CHARACTERS = 16 * 1024;
export const EK_CERTIFICATE_CHAIN_MAX_CHARACTERS = 64 * 1024;
export const HOSTNAME_MAX_CHARACTERS = 253;
export const HARDWARE_ID_MAX_CHARACTERS = 128;
export const MAX_MAC_ADDRESSES = 32;
/** A TPM2B_PUBLIC is at most a few hundred bytes (RSA-4096 unique: 512); base64 of 1 KiB. */
export const AK_PUBLIC_MAX_CHARACTERS = 1400;
/** A quote's TPMS_ATTEST is a few hundred bytes, its TPMT_SIGNATURE at most an RSA-4096 one: base64 of 2 KiB each. */
export const QUOTE_PART_MAX_CHARACTERS = 2800;
/** A TPM has 24 PCRs. */
export const MAX_QUOTED_PCRS = 24;
export const TPM_CHALLENGE_ID_PATTERN = /^tpmc_[0-9a-hjkmnp-tv-z]{26}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

// RFC 1123: dot-separated labels of letters, digits and inner hyphens, each
// 1-63 characters; no trailing dot.
const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
export const HOSTNAME_PATTERN = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const MAC_PATTERN = /^[0-9a-f]{2}(?::[0-9a-f]{2}){5}$/;
// No C0 control characters and no DEL.
const PRINTABLE = /^[^\u0000-\u001f\u007f]*$/;

const string = (what: string) => z.string({ error: (issue) => (issue.input === undefined ? "is required" : `must be ${what}`) });

const pem = (label: string, max: number) =>
  string(`a PEM ${label}`)
    .refine((value) => value.length <= max, `must be at most ${max} characters`)
    .refine((value) => value.trimStart().startsWith("-----BEGIN "), `must be a PEM ${label}`);

export const base64 = (what: string, max: number) =>
  string(`base64 of ${what}`)
    .refine((value) => value.length <= max, `must be at most ${max} characters`)
    .refine((value) => BASE64.test(value) && value.length % 4 === 0, `must be base64 of ${what}`)
    .transform((value) => Buffer.from(value, "base64"));

const hardwareId = string("a string")
  .refine((value) => codePointLength(value) <= HARDWARE_ID_MAX_CHARACTERS, `must be at most ${HARDWARE_ID_MAX_CHARACTERS} characters`)
  .refine((value) => PRINTABLE.test(value), "must not contain control characters");

export const macAddressField = string("a MAC address like aa:bb:cc:dd:ee:ff")
  .transform((value) => value.toLowerCase())
  .refine((value) => MAC_PATTERN.test(value), "must be a MAC address like aa:bb:cc:dd:ee:ff");

/** A PEM certificate request (the join's and nodes/renew's); that its signature verifies is checked where it is parsed. */
export const csrField = pem("certificate request", CSR_MAX_CHARACTERS);

export const joinNodeInput = z.strictObject({
  csr: csrField,
  hostname: string("a hostname")
    .refine((value) => value.length <= HOSTNAME_MAX_CHARACTERS, `must be at most ${HOSTNAME_MAX_CHARACTERS} characters`)
    .refine((value) => HOSTNAME_PATTERN.test(value), "must be an RFC 1123 hostname"),
  hardware: z.strictObject(
    {
      systemUuid: hardwareId,
      serialNumber: hardwareId,
      macAddresses: z
        .array(macAddressField, { error: "must be an array of MAC addresses" })
        .max(MAX_MAC_ADDRESSES, { error: `must hold at most ${MAX_MAC_ADDRESSES} MAC addresses` })
        .transform((macs) => [...new Set(macs)]),
    },
    { error: (issue) => (issue.input === undefined ? "is required" : "must be an object") },
  ),
  tpm: optional(
    z.strictObject(
      {
        ekPublicKey: pem("public key", EK_MAX_CHARACTERS),
        // SPEC I1: the manufacturer's certificate for this EK, and its intermediates (what they hold is read at the join)
        ekCertificate: optional(pem("CERTIFICATE", EK_CERTIFICATE_MAX_CHARACTERS)),
        ekCertificateChain: optional(pem("CERTIFICATE chain", EK_CERTIFICATE_CHAIN_MAX_CHARACTERS)),
        // SPEC F1: the attestation key's TPM2B_PUBLIC, and on the second step the activated challenge
        akPublic: optional(base64("the AK's TPM2B_PUBLIC", AK_PUBLIC_MAX_CHARACTERS)),
        activation: optional(
          z.strictObject(
            {
              challengeId: string("a challenge id").regex(TPM_CHALLENGE_ID_PATTERN, {
                error: "must be a challenge id (tpmc_…) from the join's challenge",
              }),
              secret: base64("the activated secret", 64),
            },
            { error: "must be an object or null" },
          ),
        ),
        // SPEC I2: TPM2_Quote over the challenge's PCR selection and nonce (what each value is, is checked against the challenge)
        quote: optional(
          z.strictObject(
            {
              attest: base64("the quote's TPMS_ATTEST", QUOTE_PART_MAX_CHARACTERS),
              signature: base64("the quote's TPMT_SIGNATURE", QUOTE_PART_MAX_CHARACTERS),
              pcrs: z
                .record(z.string(), string("a SHA-256 value in hex"), { error: "must be an object of PCR index → hex value" })
                .refine((pcrs) => Object.keys(pcrs).length <= MAX_QUOTED_PCRS, `must hold at most ${MAX_QUOTED_PCRS} PCRs`),
            },
            { error: "must be an object or null" },
          ),
        ),
      },
      { error: "must be an object or null" },
    ),
  ),
});

export type JoinNodeInput = z.output<typeof joinNodeInput>;
