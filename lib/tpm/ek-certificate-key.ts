import { createHash, createPublicKey, type KeyObject } from "node:crypto";
import { EkCertificateInputError } from "./verify-ek-certificate";
import { readCertificate } from "./x509-certificates";
import { PemFormatError } from "../pem/read-pem";

// SPEC I1: "The EK is the certificate's subject public key; an ekPublicKey
// that differs is 400 naming it." A certificate for another TPM's EK must not
// vouch for this one, so the key the join proved (F1) and the key the
// certificate names are compared as canonical DER SubjectPublicKeyInfo.

const CURVES: Record<string, string> = { prime256v1: "P-256", secp384r1: "P-384", secp521r1: "P-521" };

export interface EkCertificateKey {
  /** the certificate's SubjectPublicKeyInfo, re-encoded by node:crypto (one spelling per key) */
  der: Buffer;
  /** SHA-256 of `der`, lowercase hex: the same hash the allow-list holds (SPEC B5) */
  sha256: string;
  keyObject: KeyObject;
  /** "RSA 2048" or "ECC P-384": what the request page says the EK is */
  description: string;
}

/** The public key an EK certificate certifies: RSA or ECC (NIST curves), nothing else. */
export function readEkCertificateKey(certificatePem: string): EkCertificateKey {
  let keyObject: KeyObject;
  try {
    const spki = readCertificate(certificatePem).subjectPublicKeyInfo.toSchema().toBER(false);
    keyObject = createPublicKey({ key: Buffer.from(spki), format: "der", type: "spki" });
  } catch (error) {
    const why = error instanceof PemFormatError ? error.message : "has a subject public key that cannot be read";
    throw new EkCertificateInputError("ekCertificate", why);
  }
  const details = keyObject.asymmetricKeyDetails;
  let description: string;
  if (keyObject.asymmetricKeyType === "rsa") description = `RSA ${details?.modulusLength ?? "?"}`;
  else if (keyObject.asymmetricKeyType === "ec" && details?.namedCurve && CURVES[details.namedCurve])
    description = `ECC ${CURVES[details.namedCurve]}`;
  else
    throw new EkCertificateInputError(
      "ekCertificate",
      `certifies a ${keyObject.asymmetricKeyType ?? "unknown"} key; an EK is RSA or NIST ECC`,
    );
  const der = keyObject.export({ format: "der", type: "spki" });
  return { der, sha256: createHash("sha256").update(der).digest("hex"), keyObject, description };
}

/** Throws EkCertificateInputError on `ekPublicKey` when the certificate is for another key. */
export function assertEkCertificateIsFor(certificatePem: string, ekPublicKey: KeyObject): EkCertificateKey {
  const certified = readEkCertificateKey(certificatePem);
  if (!certified.der.equals(ekPublicKey.export({ format: "der", type: "spki" }))) {
    throw new EkCertificateInputError(
      "ekPublicKey",
      `is not the key the ekCertificate certifies (it certifies an ${certified.description} EK with SHA-256 ${certified.sha256})`,
    );
  }
  return certified;
}
