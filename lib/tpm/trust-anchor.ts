import { createHash } from "node:crypto";
import type * as pkijs from "pkijs";
import { PemFormatError, readPem } from "../pem/read-pem";
import { certificateFromDer, formatName } from "./x509-certificates";

// SPEC I1: a certificate a tenant puts in its TPM trust store. Only a CA's
// certificate may be a trust anchor (an EK certificate there would vouch for
// nothing but itself), and it is kept in one spelling, so adding the same
// root twice, however its PEM was wrapped, finds the same row.

const BASIC_CONSTRAINTS = "2.5.29.19";

export interface TrustAnchor {
  /** SHA-256 of the certificate's DER, lowercase hex: its fingerprint and its identity in the store */
  sha256: string;
  /** the certificate re-armoured from its DER (64-column base64) */
  pem: string;
  subject: string;
  notBefore: Date;
  notAfter: Date;
}

/** Reads one PEM CERTIFICATE of a CA; a PemFormatError says what is wrong (the caller names the field). */
export function readTrustAnchor(text: string): TrustAnchor {
  const der = readPem(text, "CERTIFICATE");
  const certificate = certificateFromDer(der);
  if (!isCa(certificate)) throw new PemFormatError("is not a CA certificate (basicConstraints cA is not set): a trust store holds roots");
  const base64 = der.toString("base64").replace(/.{1,64}/g, "$&\n");
  return {
    sha256: createHash("sha256").update(der).digest("hex"),
    pem: `-----BEGIN CERTIFICATE-----\n${base64}-----END CERTIFICATE-----\n`,
    subject: formatName(certificate.subject),
    notBefore: certificate.notBefore.value,
    notAfter: certificate.notAfter.value,
  };
}

function isCa(certificate: pkijs.Certificate): boolean {
  const constraints = certificate.extensions?.find((extension) => extension.extnID === BASIC_CONSTRAINTS)?.parsedValue as
    pkijs.BasicConstraints | undefined;
  return constraints?.cA === true;
}
