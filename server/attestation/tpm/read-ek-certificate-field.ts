import "server-only";
import { ApiError } from "../../api/errors";
import type { EndorsementKey } from "@/lib/tpm/endorsement-key";
import { assertEkCertificateIsFor } from "@/lib/tpm/ek-certificate-key";
import { EkCertificateInputError } from "@/lib/tpm/verify-ek-certificate";
import { readCertificates } from "@/lib/tpm/x509-certificates";
import { PemFormatError } from "@/lib/pem/read-pem";
import type { PresentedEkCertificate } from "./presented-ek-certificate";

/**
 * SPEC I1, before anything else of the TPM join: the join's EK certificate and
 * chain must be readable, and the certificate must certify the EK presented
 * (`ekPublicKey`), else 400 naming the field. So the tpm attestor only ever
 * judges a certificate for the key the credential activation proves.
 */
export function readEkCertificateField(
  tpm: { ekCertificate?: string; ekCertificateChain?: string },
  ek: EndorsementKey,
  at: Date,
): PresentedEkCertificate | undefined {
  if (tpm.ekCertificate === undefined) {
    if (tpm.ekCertificateChain !== undefined) throw invalid("ekCertificateChain", "is sent only with tpm.ekCertificate");
    return undefined;
  }
  try {
    assertEkCertificateIsFor(tpm.ekCertificate, ek.keyObject);
    readCertificates(tpm.ekCertificateChain ?? "");
  } catch (error) {
    if (error instanceof EkCertificateInputError) throw invalid(error.field, error.message.slice(error.field.length + 1));
    if (error instanceof PemFormatError) throw invalid("ekCertificateChain", error.message);
    throw error;
  }
  return { certificate: tpm.ekCertificate, chain: tpm.ekCertificateChain, at };
}

function invalid(field: string, message: string): ApiError {
  return new ApiError("INVALID_ARGUMENT", `tpm.${field} ${message}`, [{ field: `tpm.${field}`, message }]);
}
