import { createHash, createPublicKey } from "node:crypto";
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

const invalid = (field: string, message: string) => new ApiError("INVALID_ARGUMENT", `${field} ${message}`, [{ field, message }]);

const sha256Hex = (der: ArrayBuffer) => createHash("sha256").update(Buffer.from(der)).digest("hex");

export async function verifyCsr(pem: string): Promise<VerifiedCsr> {
  let csr: x509.Pkcs10CertificateRequest;
  try {
    csr = new x509.Pkcs10CertificateRequest(pem);
  } catch {
    throw invalid("csr", "is not a PEM PKCS#10 certificate request");
  }
  checkKeyPolicy(csr); // before the signature: a weak key is named as such, even one WebCrypto cannot verify
  let verified = false;
  try {
    verified = await csr.verify();
  } catch {
    // an unsupported or malformed key or signature algorithm
  }
  if (!verified) throw invalid("csr", "signature does not verify with the request's own public key");
  return { sha256: sha256Hex(csr.rawData), publicKey: csr.publicKey };
}

const ALLOWED_CURVES: Record<string, string> = { prime256v1: "P-256", secp384r1: "P-384" };
const STRONG_HASHES = new Set(["SHA-256", "SHA-384", "SHA-512"]);
const MIN_RSA_BITS = 2048;
const KEY_POLICY = "P-256, P-384, Ed25519 or RSA of at least 2048 bits";

/**
 * SPEC F4: the node certificate certifies the CSR's key, so only keys and
 * signatures that hold up are admitted; the key facts are read by node's
 * crypto from the DER SPKI, the signature's hash from the parsed request.
 */
function checkKeyPolicy(csr: x509.Pkcs10CertificateRequest): void {
  const key = createPublicKey({ key: Buffer.from(csr.publicKey.rawData), format: "der", type: "spki" });
  const details = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === "ec") {
    if (!details.namedCurve || !ALLOWED_CURVES[details.namedCurve])
      throw invalid("csr", `key is EC ${details.namedCurve ?? "of an unnamed curve"}; use ${KEY_POLICY}`);
  } else if (key.asymmetricKeyType === "rsa" || key.asymmetricKeyType === "rsa-pss") {
    if ((details.modulusLength ?? 0) < MIN_RSA_BITS) throw invalid("csr", `key is RSA-${details.modulusLength}; use ${KEY_POLICY}`);
  } else if (key.asymmetricKeyType !== "ed25519") {
    throw invalid("csr", `key is ${key.asymmetricKeyType}; use ${KEY_POLICY}`);
  }
  if (key.asymmetricKeyType === "ed25519") return; // EdDSA's hash is part of the algorithm
  const hash = (csr.signatureAlgorithm as { hash?: { name?: string } }).hash?.name;
  if (!hash || !STRONG_HASHES.has(hash))
    throw invalid("csr", `is signed with ${hash ?? "an unknown hash"}; sign it with SHA-256 or stronger`);
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
