import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { CA_ALGORITHM, type TenantCa } from "./tenant-ca";
import { x509 } from "./x509";

export const NODE_CERTIFICATE_DAYS = 30;

export interface NodeCertificate {
  pem: string;
  /** hex, as in the certificate */
  serial: string;
  notBefore: Date;
  notAfter: Date;
  /** SHA-256 (hex) of the certificate's DER */
  sha256: string;
  /** the certified public key, DER SubjectPublicKeyInfo: what the node's JWTs verify against */
  publicKeyDer: Uint8Array<ArrayBuffer>;
}

// The same for every node certificate: made once, not per join (each
// extension is ASN.1-encoded when made; issue #38's boot storm).
const FIXED_EXTENSIONS = [
  new x509.BasicConstraintsExtension(false, undefined, true),
  new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
  new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth, x509.ExtendedKeyUsage.serverAuth]),
];

/**
 * The node's certificate: the CSR's public key, CN and DNS SAN the
 * hostname, 30 days, for TLS client and server use, signed by the tenant CA.
 */
export async function issueNodeCertificate(input: {
  ca: TenantCa;
  publicKey: x509.PublicKey;
  hostname: string;
  now: Date;
}): Promise<NodeCertificate> {
  const { ca, publicKey, hostname, now } = input;
  const serial = randomSerial();
  const notAfter = new Date(now.getTime() + NODE_CERTIFICATE_DAYS * 24 * 3600 * 1000);
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serial,
    subject: [{ CN: [hostname] }],
    issuer: ca.certificate.subjectName,
    publicKey,
    signingKey: ca.signingKey,
    signingAlgorithm: CA_ALGORITHM,
    notBefore: now,
    notAfter,
    extensions: [
      ...FIXED_EXTENSIONS,
      new x509.SubjectAlternativeNameExtension([{ type: "dns", value: hostname }]),
      await x509.SubjectKeyIdentifierExtension.create(publicKey),
      ca.authorityKeyIdentifier,
    ],
  });
  return {
    pem: certificate.toString("pem"),
    serial: certificate.serialNumber,
    // as the certificate says them (whole seconds)
    notBefore: certificate.notBefore,
    notAfter: certificate.notAfter,
    sha256: createHash("sha256").update(new Uint8Array(certificate.rawData)).digest("hex"),
    // the key it certifies is the CSR's, as the CSR encoded it (read back from the certificate, it is parsed again)
    publicKeyDer: new Uint8Array(publicKey.rawData),
  };
}

/** 16 random bytes, the top bit clear so the DER integer stays positive. */
function randomSerial(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return bytes.toString("hex");
}
