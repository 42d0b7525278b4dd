import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { connectionTarget, type ConnectionTarget } from "../db/connection-target";
import { env } from "../env";
import { log } from "../log";

// Tenant CA private keys are encrypted at rest with AES-256-GCM under
// BC_CA_KEY_ENCRYPTION_KEY (32 bytes, hex or base64). Without it, the
// embedded database (a developer's machine) gets a generated key in a file
// next to its data; a real PostgreSQL refuses to sign: a key that silently
// appears on one instance would strand every CA it encrypted.

export class CaKeyConfigurationError extends Error {
  override name = "CaKeyConfigurationError";
}

const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const DEV_KEY_FILE = "dev-ca-key";

/** 64 hex digits or base64 of 32 bytes; anything else is a configuration error. */
export function parseEncryptionKey(value: string): Buffer {
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, "hex");
  const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(text) ? Buffer.from(text, "base64") : Buffer.alloc(0);
  if (key.byteLength !== KEY_BYTES) {
    throw new CaKeyConfigurationError(
      "BC_CA_KEY_ENCRYPTION_KEY must be 32 bytes as 64 hex digits or base64 (e.g. `openssl rand -base64 32`)",
    );
  }
  return key;
}

let cached: Promise<Buffer> | undefined;

/** The key that encrypts CA private keys, resolved once per process at first need. */
export function caEncryptionKey(): Promise<Buffer> {
  cached ??= resolveKey(env().BC_CA_KEY_ENCRYPTION_KEY, connectionTarget()).catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

export async function resolveKey(configured: string | undefined, target: ConnectionTarget): Promise<Buffer> {
  if (configured) return parseEncryptionKey(configured);
  if (target.kind === "postgres") {
    throw new CaKeyConfigurationError(
      "BC_CA_KEY_ENCRYPTION_KEY is not set: with DATABASE_URL the tenant CAs' private keys cannot be encrypted, " +
        "so no node certificate can be signed. Set it to 32 random bytes (`openssl rand -base64 32`), the same on every instance.",
    );
  }
  if (/^[a-z]+:\/\//.test(target.dir)) {
    log.warn("BC_CA_KEY_ENCRYPTION_KEY is not set: using a throwaway key for this in-memory database");
    return randomBytes(KEY_BYTES);
  }
  return readOrCreateDevKey(path.join(path.dirname(target.dir), DEV_KEY_FILE));
}

/** The development key file: made once (mode 0600), read after that. */
async function readOrCreateDevKey(file: string): Promise<Buffer> {
  await mkdir(path.dirname(file), { recursive: true });
  try {
    await writeFile(file, `${randomBytes(KEY_BYTES).toString("base64")}\n`, { flag: "wx", mode: 0o600 });
    log.info("BC_CA_KEY_ENCRYPTION_KEY is not set: generated a development CA key encryption key", { file });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return parseEncryptionKey(await readFile(file, "utf8"));
}

/** nonce ‖ ciphertext ‖ tag; `context` (the tenant id) is bound as associated data. */
export function encryptSecret(key: Buffer, plaintext: Uint8Array, context: string): Uint8Array<ArrayBuffer> {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return new Uint8Array(Buffer.concat([nonce, ciphertext, cipher.getAuthTag()]));
}

export function decryptSecret(key: Buffer, sealed: Uint8Array, context: string): Buffer {
  const bytes = Buffer.from(sealed);
  const nonce = bytes.subarray(0, NONCE_BYTES);
  const tag = bytes.subarray(bytes.byteLength - TAG_BYTES);
  const decipher = createDecipheriv("aes-256-gcm", key, nonce);
  decipher.setAAD(Buffer.from(context, "utf8"));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES, bytes.byteLength - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new CaKeyConfigurationError(
      `the CA private key of tenant ${context} does not decrypt: BC_CA_KEY_ENCRYPTION_KEY is not the key it was encrypted with`,
    );
  }
}
