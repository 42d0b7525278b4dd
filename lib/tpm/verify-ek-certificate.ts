import * as pkijs from "pkijs";
import { PemFormatError } from "../pem/read-pem";
import { diagnoseChain, type EkCertificateFailureReason } from "./diagnose-ek-chain";
import { describeCertificate, pkixCrypto, readCertificate, readCertificates } from "./x509-certificates";

// SPEC I1: an EK certificate is believed when it chains, by RFC 5280 path
// validation at the time of the join, to a manufacturer root in the tenant's
// trust store. pkijs's CertificateChainValidationEngine decides; when it says
// no, diagnoseChain says why in the words the request page shows.

export type { EkCertificateFailureReason };

const BASIC_CONSTRAINTS = "2.5.29.19";

export interface CertificateSummary {
  subject: string;
  issuer: string;
  serial: string;
}

export type EkCertificateVerdict =
  | { ok: true; issuer: string; serial: string; /** from the EK certificate up to the trusted root */ chain: CertificateSummary[] }
  | { ok: false; reason: EkCertificateFailureReason; issuer: string; serial: string; detail: string };

/** A certificate the join sent that cannot be read at all: a 400 on `field`, not a verdict. */
export class EkCertificateInputError extends Error {
  constructor(
    readonly field: "ekCertificate" | "ekCertificateChain" | "ekPublicKey",
    message: string,
  ) {
    super(`${field} ${message}`);
    this.name = "EkCertificateInputError";
  }
}

export interface VerifyEkCertificateInput {
  /** one PEM CERTIFICATE block: the manufacturer's certificate for the EK */
  certificate: string;
  /** intermediate certificates, PEM blocks one after another (may be empty) */
  chain?: string;
  /** the tenant's trust store: one PEM CERTIFICATE block each */
  trustedRoots: readonly string[];
  /** when the chain must be valid: the time of the join */
  at: Date;
}

export async function verifyEkCertificate({
  certificate,
  chain = "",
  trustedRoots,
  at,
}: VerifyEkCertificateInput): Promise<EkCertificateVerdict> {
  const leaf = readInput("ekCertificate", () => readCertificate(certificate));
  const intermediates = readInput("ekCertificateChain", () => readCertificates(chain));
  const roots = trustedRoots.map((pem) => readCertificate(pem));
  const { issuer, serial } = describeCertificate(leaf);

  const engine = new pkijs.CertificateChainValidationEngine({ trustedCerts: roots, certs: [...intermediates, leaf], checkDate: at });
  const result = await engine.verify({}, pkixCrypto);
  if (!result.result) {
    const diagnosis = await diagnoseChain({ leaf, intermediates, roots, at });
    return { ok: false, issuer, serial, ...(diagnosis ?? { reason: "invalid-chain", detail: result.resultMessage }) };
  }
  // pkijs refuses unreadable critical extensions only in CA certificates; RFC 5280 §4.2 asks it of every one.
  const unknown = (leaf.extensions ?? []).find((extension) => extension.critical && !extension.parsedValue);
  if (unknown)
    return {
      ok: false,
      issuer,
      serial,
      reason: "invalid-chain",
      detail: `the EK certificate has an unrecognised critical extension ${unknown.extnID}`,
    };
  // A CA's certificate chains too, but certifies a CA key, not a TPM's EK.
  const constraints = leaf.extensions?.find((extension) => extension.extnID === BASIC_CONSTRAINTS)?.parsedValue as
    pkijs.BasicConstraints | undefined;
  if (constraints?.cA)
    return { ok: false, issuer, serial, reason: "invalid-chain", detail: "the EK certificate is a CA certificate (basicConstraints cA)" };
  return { ok: true, issuer, serial, chain: (result.certificatePath ?? []).map(describeCertificate) };
}

function readInput<T>(field: "ekCertificate" | "ekCertificateChain", read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof PemFormatError) throw new EkCertificateInputError(field, error.message);
    throw error;
  }
}
