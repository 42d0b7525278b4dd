import "server-only";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

// Bearer credentials: `<prefix>_<id>.<secret>`. Only SHA-256(secret) is stored;
// the id is public (it names the credential in logs), the secret never is.
export type CredentialPrefix = "bcsk" | "bcjt" | "bcse";

export interface BearerCredential {
  prefix: CredentialPrefix;
  id: string;
  secret: string;
}

const BEARER = /^Bearer (bcsk|bcjt|bcse)_([0-9a-z]{1,64})\.([A-Za-z0-9_-]{1,256})$/;

export function parseBearer(authorization: string | null): BearerCredential | null {
  const match = authorization ? BEARER.exec(authorization.trim()) : null;
  if (!match) return null;
  return { prefix: match[1] as CredentialPrefix, id: match[2]!, secret: match[3]! };
}

/** SHA-256 of a secret, as stored (a plain Uint8Array, which Prisma's Bytes expects). */
export function hashSecret(secret: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash("sha256").update(secret, "utf8").digest());
}

// Compared against when the id is unknown, so that an unknown id and a wrong
// secret take the same time.
const DECOY_HASH = hashSecret(randomBytes(32).toString("hex"));

/** Constant-time check of a presented secret against a stored SHA-256. */
export function secretMatches(secret: string, storedHash: Uint8Array | null | undefined): boolean {
  const presented = hashSecret(secret);
  const stored = storedHash && storedHash.byteLength === presented.byteLength ? storedHash : DECOY_HASH;
  return timingSafeEqual(presented, stored) && stored !== DECOY_HASH;
}

/**
 * Constant-time check of a presented token against a configured one (both
 * plain text): their digests are compared, so the lengths are equal and no
 * early exit tells the token's length.
 */
export function tokenMatches(presented: string, expected: string): boolean {
  return timingSafeEqual(hashSecret(presented), hashSecret(expected));
}

/** A new random secret for a credential (shown once, then only its hash is kept). */
export function generateSecret(): string {
  return randomBytes(32).toString("base64url");
}
