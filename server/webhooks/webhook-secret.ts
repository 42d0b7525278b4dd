import "server-only";
import { randomBytes } from "node:crypto";
import { caEncryptionKey, CaKeyConfigurationError, decryptSecret, encryptSecret } from "../pki/ca-key-encryption";

// A webhook's signing secret, in the Standard Webhooks form `whsec_<base64>`:
// the HMAC key is the base64-decoded part. It must be usable for signing, so
// it is encrypted at rest (not hashed), with the same AES-256-GCM key and
// helper as the tenant CA keys (BC_CA_KEY_ENCRYPTION_KEY).

const PREFIX = "whsec_";
const KEY_BYTES = 32;

export class WebhookSecretError extends Error {
  override name = "WebhookSecretError";
}

/** A new signing key and the `whsec_…` text shown once to the operator. */
export function generateWebhookSecret(): { key: Buffer; secret: string } {
  const key = randomBytes(KEY_BYTES);
  return { key, secret: `${PREFIX}${key.toString("base64")}` };
}

/** The HMAC key of a `whsec_<base64>` secret (what a receiver does too). */
export function webhookSecretKey(secret: string): Buffer {
  if (!secret.startsWith(PREFIX)) throw new WebhookSecretError("a webhook secret starts with whsec_");
  return Buffer.from(secret.slice(PREFIX.length), "base64");
}

// The subscription id binds the ciphertext to its row.
const context = (subscriptionId: string) => `webhook:${subscriptionId}`;

export async function sealWebhookKey(subscriptionId: string, key: Buffer): Promise<Uint8Array<ArrayBuffer>> {
  return encryptSecret(await caEncryptionKey(), key, context(subscriptionId));
}

export async function openWebhookKey(subscriptionId: string, sealed: Uint8Array): Promise<Buffer> {
  try {
    return decryptSecret(await caEncryptionKey(), sealed, context(subscriptionId));
  } catch (error) {
    if (!(error instanceof CaKeyConfigurationError) || !/does not decrypt/.test(error.message)) throw error;
    throw new WebhookSecretError(
      `the signing secret of webhook ${subscriptionId} does not decrypt: BC_CA_KEY_ENCRYPTION_KEY is not the key it was encrypted with`,
    );
  }
}
