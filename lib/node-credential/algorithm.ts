import type { KeyObject } from "node:crypto";

/**
 * The one JWS algorithm each node key type signs with (SPEC D2; P-384 as F4
 * allows it): what the daemon signs with and the only one the server accepts
 * for that key. A private or a public key of the pair gives the same answer.
 */
export function algorithmFor(key: KeyObject): string | null {
  if (key.asymmetricKeyType === "ed25519") return "EdDSA";
  if (key.asymmetricKeyType === "rsa") return "RS256";
  if (key.asymmetricKeyType === "ec") {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    return curve === "prime256v1" ? "ES256" : curve === "secp384r1" ? "ES384" : null;
  }
  return null;
}
