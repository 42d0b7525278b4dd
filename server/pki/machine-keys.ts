import { constants, createHash, createPublicKey, verify, type KeyObject } from "node:crypto";
import { ApiError } from "../api/errors";
import { PemFormatError, readPem } from "@/lib/pem/read-pem";
import { readEndorsementKey, type EndorsementKey } from "@/lib/tpm/endorsement-key";
import { algorithmFor } from "@/lib/node-credential/algorithm";
import { x509 } from "./x509";

// What the join reads from the machine's PEMs. The PEM framing is read
// strictly, once (lib/pem/read-pem.ts, SPEC G1); the DER by @peculiar/x509 and
// node's crypto (no hand-written ASN.1), and it must be exactly what they
// would encode (nothing trailing). Anything else, or a CSR whose own
// signature does not verify, is INVALID_ARGUMENT naming the field.

export interface VerifiedCsr {
  /** hex SHA-256 of the CSR's DER: the machine's identity across retries */
  sha256: string;
  /** the key the node certificate will certify */
  publicKey: x509.PublicKey;
}

const invalid = (field: string, message: string) => new ApiError("INVALID_ARGUMENT", `${field} ${message}`, [{ field, message }]);

// The request as @peculiar/x509 parsed it, with what it keeps protected.
class ParsedCsr extends x509.Pkcs10CertificateRequest {
  /** The request encoded again from what was parsed. */
  reencoded(): Buffer {
    return Buffer.from(new x509.Pkcs10CertificateRequest(this.asn).rawData);
  }

  /** The signed part (certificationRequestInfo) exactly as it arrived. */
  signedBytes(): Buffer | null {
    const raw = this.asn.certificationRequestInfoRaw;
    return raw ? Buffer.from(raw) : null;
  }
}

export async function verifyCsr(pem: string): Promise<VerifiedCsr> {
  let csr: ParsedCsr;
  let der: Buffer;
  try {
    der = readPem(pem, "CERTIFICATE REQUEST");
    csr = new ParsedCsr(new Uint8Array(der));
    if (!csr.reencoded().equals(der)) throw new PemFormatError("has trailing or non-canonical DER bytes");
  } catch (error) {
    throw invalid("csr", error instanceof PemFormatError ? error.message : "is not a PEM PKCS#10 certificate request");
  }
  const key = checkKeyPolicy(csr); // before the signature: a weak key is named as such, even one that cannot verify
  if (!signatureVerifies(csr, key)) throw invalid("csr", "signature does not verify with the request's own public key");
  return { sha256: createHash("sha256").update(der).digest("hex"), publicKey: csr.publicKey };
}

const STRONG_HASHES = new Set(["SHA-256", "SHA-384", "SHA-512"]);
const MIN_RSA_BITS = 2048;
const KEY_POLICY = "P-256, P-384, Ed25519 or RSA of at least 2048 bits";

/**
 * SPEC F4 and G10: the node certificate certifies the CSR's key, so only keys
 * that can later sign a node credential (algorithmFor: the one list both
 * sides read) and signatures that hold up are admitted. The key facts are
 * read by node's crypto from the DER SPKI; a key it cannot read at all (an
 * unknown algorithm) is refused like one of the wrong kind.
 */
function checkKeyPolicy(csr: x509.Pkcs10CertificateRequest): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(csr.publicKey.rawData), format: "der", type: "spki" });
  } catch {
    throw invalid("csr", `key cannot be read (an unknown or malformed algorithm); use ${KEY_POLICY}`);
  }
  const details = key.asymmetricKeyDetails ?? {};
  if (!algorithmFor(key)) {
    const kind =
      key.asymmetricKeyType === "ec" ? `EC ${details.namedCurve ?? "of an unnamed curve"}` : key.asymmetricKeyType?.toUpperCase();
    throw invalid("csr", `key is ${kind}; use ${KEY_POLICY}`);
  }
  if (key.asymmetricKeyType === "rsa" && (details.modulusLength ?? 0) < MIN_RSA_BITS)
    throw invalid("csr", `key is RSA-${details.modulusLength}; use ${KEY_POLICY}`);
  if (key.asymmetricKeyType === "ed25519") return key; // EdDSA's hash is part of the algorithm
  const hash = (csr.signatureAlgorithm as { hash?: { name?: string } }).hash?.name;
  if (!hash || !STRONG_HASHES.has(hash))
    throw invalid("csr", `is signed with ${hash ?? "an unknown hash"}; sign it with SHA-256 or stronger`);
  return key;
}

/**
 * The CSR's own signature over its signed bytes, checked by node's crypto
 * with the key checkKeyPolicy read, by the algorithm the CSR names, which
 * must be one for that kind of key. (The same check through @peculiar/x509's
 * verify and WebCrypto took about twelve times as long, a large share of a
 * join's CPU in a boot storm: issue #38.) Anything malformed is a refusal.
 */
function signatureVerifies(csr: ParsedCsr, key: KeyObject): boolean {
  const algorithm = csr.signatureAlgorithm as { name?: string; hash?: { name?: string }; saltLength?: number };
  const hash = algorithm.hash?.name?.replace("-", "").toLowerCase(); // SHA-256 → sha256
  const data = csr.signedBytes();
  const signature = Buffer.from(csr.signature);
  if (!data) return false;
  try {
    switch (algorithm.name) {
      case "ECDSA":
        return key.asymmetricKeyType === "ec" && !!hash && verify(hash, data, { key, dsaEncoding: "der" }, signature);
      case "RSASSA-PKCS1-v1_5":
        return key.asymmetricKeyType === "rsa" && !!hash && verify(hash, data, key, signature);
      case "RSA-PSS":
        return (
          key.asymmetricKeyType === "rsa" &&
          !!hash &&
          verify(hash, data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: algorithm.saltLength }, signature)
        );
      case "Ed25519":
        return key.asymmetricKeyType === "ed25519" && verify(null, data, key, signature);
      default:
        return false;
    }
  } catch {
    return false;
  }
}

/**
 * The endorsement key a caller sent in `field`, read once (SPEC G1): one PEM
 * `PUBLIC KEY` of an RSA-2048 or P-256 key. Its hash, the key a credential is
 * made for and the hash recorded all come from the value returned.
 */
export function readEndorsementKeyField(pem: string, field = "tpm.ekPublicKey"): EndorsementKey {
  try {
    return readEndorsementKey(pem);
  } catch (error) {
    if (error instanceof PemFormatError) throw invalid(field, error.message);
    throw error;
  }
}

/** SHA-256 of the endorsement key's DER SubjectPublicKeyInfo, lowercase hex (SPEC B5). */
export function endorsementKeySha256(pem: string): string {
  return readEndorsementKeyField(pem).sha256;
}
