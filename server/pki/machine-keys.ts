import { createHash } from "node:crypto";
import { ApiError } from "../api/errors";
import { x509 } from "./x509";

// What the join reads from the machine's PEMs, parsed by @peculiar/x509 (no
// hand-written ASN.1). Any PEM that does not parse, or a CSR whose own
// signature does not verify, is INVALID_ARGUMENT naming the field.

export interface VerifiedCsr {
  /** hex SHA-256 of the CSR's DER: the machine's identity across retries */
  sha256: string;
  /** the key the node certificate will certify */
  publicKey: x509.PublicKey;
}

const invalid = (field: string, message: string) =>
  new ApiError("INVALID_ARGUMENT", `${field} ${message}`, [{ field, message }]);

const sha256Hex = (der: ArrayBuffer) => createHash("sha256").update(Buffer.from(der)).digest("hex");

export async function verifyCsr(pem: string): Promise<VerifiedCsr> {
  let csr: x509.Pkcs10CertificateRequest;
  try {
    csr = new x509.Pkcs10CertificateRequest(pem);
  } catch {
    throw invalid("csr", "is not a PEM PKCS#10 certificate request");
  }
  let verified = false;
  try {
    verified = await csr.verify();
  } catch {
    // an unsupported or malformed key or signature algorithm
  }
  if (!verified) throw invalid("csr", "signature does not verify with the request's own public key");
  return { sha256: sha256Hex(csr.rawData), publicKey: csr.publicKey };
}

/** SHA-256 of the endorsement key's DER SubjectPublicKeyInfo, lowercase hex (SPEC B5). */
export function endorsementKeySha256(pem: string): string {
  let key: x509.PublicKey;
  try {
    key = new x509.PublicKey(pem);
  } catch {
    throw invalid("tpm.ekPublicKey", "is not a PEM SubjectPublicKeyInfo public key");
  }
  return sha256Hex(key.rawData);
}
