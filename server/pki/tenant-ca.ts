import "server-only";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { readRows } from "../db/read-rows";
import { createHash } from "node:crypto";
import { caEncryptionKey, decryptSecret, encryptSecret } from "./ca-key-encryption";
import { subtle, x509 } from "./x509";

// Each tenant's certificate authority signs its nodes' certificates. It is
// made on first need; concurrent first needs (several instances) each make
// one, exactly one insert wins, and everyone uses the stored one.

export const CA_ALGORITHM = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
const CA_VALIDITY_YEARS = 10;

export interface TenantCa {
  certificate: x509.X509Certificate;
  certificatePem: string;
  signingKey: CryptoKey;
  /** the extension every certificate it signs carries, made once per CA */
  authorityKeyIdentifier: x509.AuthorityKeyIdentifierExtension;
}

export async function tenantCa(db: Db, tenantId: string, now: Date): Promise<TenantCa> {
  const encryptionKey = await caEncryptionKey(); // a configuration error surfaces here, before any write
  let stored = await readCa(db, tenantId);
  if (!stored) {
    const made = await makeCa(tenantId, now, encryptionKey);
    await db.tenantCa.createMany({ data: [made], skipDuplicates: true });
    stored = await readCa(db, tenantId);
    if (!stored) throw new Error(`tenant CA of ${tenantId} vanished right after it was stored`);
  }
  return decodeCa(tenantId, stored, encryptionKey);
}

// Decrypting, importing and parsing the CA took longer than signing a node's
// certificate (bench: boot storm). The row is still read on every call, so a
// CA replaced by another instance is used at once; what is remembered is only
// the decoding of exactly those stored bytes under exactly this key.
const decoded = new Map<string, { source: string; ca: Promise<TenantCa> }>();
const MAX_DECODED = 1_000;

function decodeCa(tenantId: string, stored: StoredCa, encryptionKey: Buffer): Promise<TenantCa> {
  const source = createHash("sha256").update(encryptionKey).update(stored.privateKeyEncrypted).update(stored.certificatePem).digest("hex");
  const known = decoded.get(tenantId);
  if (known?.source === source) return known.ca;
  const ca = importCa(tenantId, stored, encryptionKey);
  if (decoded.size >= MAX_DECODED) decoded.delete(decoded.keys().next().value!);
  decoded.set(tenantId, { source, ca });
  ca.catch(() => decoded.delete(tenantId));
  return ca;
}

async function importCa(tenantId: string, stored: StoredCa, encryptionKey: Buffer): Promise<TenantCa> {
  const pkcs8 = decryptSecret(encryptionKey, stored.privateKeyEncrypted, tenantId);
  const signingKey = await subtle.importKey("pkcs8", new Uint8Array(pkcs8), CA_ALGORITHM, false, ["sign"]);
  const certificate = new x509.X509Certificate(stored.certificatePem);
  const authorityKeyIdentifier = await x509.AuthorityKeyIdentifierExtension.create(certificate);
  return { certificate, certificatePem: stored.certificatePem, signingKey, authorityKeyIdentifier };
}

interface StoredCa {
  certificatePem: string;
  privateKeyEncrypted: Uint8Array;
}

/** Through pg (readRows): every admission signs with it. */
async function readCa(db: Db, tenantId: string): Promise<StoredCa | undefined> {
  const [stored] = await readRows<StoredCa>(
    db,
    Prisma.sql`SELECT certificate_pem AS "certificatePem", private_key_encrypted AS "privateKeyEncrypted" FROM tenant_cas WHERE tenant_id = ${tenantId}`,
  );
  return stored;
}

async function makeCa(tenantId: string, now: Date, encryptionKey: Buffer) {
  const keys = (await subtle.generateKey(CA_ALGORITHM, true, ["sign", "verify"])) as CryptoKeyPair;
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + CA_VALIDITY_YEARS);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    name: [{ CN: [`Better Compute nodes CA (${tenantId})`] }, { O: ["Better Compute"] }],
    keys,
    signingAlgorithm: CA_ALGORITHM,
    notBefore: now,
    notAfter,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const pkcs8 = new Uint8Array(await subtle.exportKey("pkcs8", keys.privateKey));
  return {
    tenantId,
    certificatePem: certificate.toString("pem"),
    privateKeyEncrypted: encryptSecret(encryptionKey, pkcs8, tenantId),
  };
}
