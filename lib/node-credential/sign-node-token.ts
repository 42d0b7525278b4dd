import { createPrivateKey } from "node:crypto";
import { SignJWT } from "jose";
import { methodPath } from "@/lib/api/method-path";
import { algorithmFor } from "./algorithm";

/** How long the tokens we make live: well inside the 300 s the server allows (SPEC D2). */
export const NODE_TOKEN_LIFETIME_SECONDS = 120;

/**
 * The daemon's side of SPEC D2: a JWT for one call of method `name`, signed
 * with the node's private key (PEM PKCS#8), `kid` and `sub` the node id.
 * The simulator, the demo seed and the tests speak as nodes with this.
 */
export async function signNodeToken(input: {
  privateKeyPem: string;
  nodeId: string;
  method: string;
  now?: Date;
  lifetimeSeconds?: number;
}): Promise<string> {
  const key = createPrivateKey(input.privateKeyPem);
  const alg = algorithmFor(key);
  if (!alg) throw new Error(`a node key must be P-256, P-384, RSA or Ed25519, not ${key.asymmetricKeyType}`);
  const iat = Math.floor((input.now ?? new Date()).getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg, kid: input.nodeId, typ: "JWT" })
    .setSubject(input.nodeId)
    .setAudience(methodPath(input.method))
    .setIssuedAt(iat)
    .setExpirationTime(iat + (input.lifetimeSeconds ?? NODE_TOKEN_LIFETIME_SECONDS))
    .sign(key);
}
