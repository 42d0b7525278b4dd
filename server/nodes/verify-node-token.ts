import "server-only";
import { createPublicKey } from "node:crypto";
import { decodeProtectedHeader, errors, jwtVerify } from "jose";
import { NODE_ID_PATTERN } from "@/lib/validations/fields";
import { algorithmFor } from "@/lib/node-credential/algorithm";

// SPEC D2: the daemon speaks as its node with a short JWT signed by the key of
// its certificate. Verified by jose (never by hand) against the public key of
// one of the node's unexpired certificates. Every failure is one answer to the
// caller; the cause is for the log.

export const MAX_TOKEN_LIFETIME_SECONDS = 300;
export const CLOCK_SKEW_SECONDS = 60;

/** A certificate the node may sign with: its public key (DER SubjectPublicKeyInfo) and when it stops counting. */
export interface NodeKey {
  spkiDer: Uint8Array;
  notAfter: Date;
}

export type NodeTokenRefusal =
  | "malformed"
  | "wrong-kid"
  | "unknown-node"
  | "revoked"
  | "no-valid-certificate"
  | "bad-signature"
  | "wrong-audience"
  | "expired"
  | "lifetime-too-long"
  | "not-yet-valid"
  | "wrong-subject"
  | "disallowed-algorithm"
  | "superseded-certificate";

export class NodeTokenError extends Error {
  constructor(
    readonly cause: NodeTokenRefusal,
    readonly nodeId: string | null,
  ) {
    super(`node token refused: ${cause}`);
    this.name = "NodeTokenError";
  }
}

/** The node id a token claims (its header's `kid`), before anything is verified; null when unreadable. */
export function claimedNodeId(token: string): string | null {
  try {
    const { kid } = decodeProtectedHeader(token);
    return typeof kid === "string" && NODE_ID_PATTERN.test(kid) ? kid : null;
  } catch {
    return null;
  }
}

/**
 * Verifies `token` as node `nodeId` for `audience` (the method's path) with
 * any of `keys` still valid at `now`, and returns the key that verified it
 * (nodes/renew takes only the newest). Throws NodeTokenError naming the cause.
 */
export async function verifyNodeToken<K extends NodeKey>(input: {
  token: string;
  nodeId: string;
  keys: K[];
  audience: string;
  now: Date;
}): Promise<K> {
  const { token, nodeId, audience, now } = input;
  const refuse = (cause: NodeTokenRefusal) => new NodeTokenError(cause, nodeId);
  const valid = input.keys.filter((key) => key.notAfter.getTime() > now.getTime());
  if (valid.length === 0) throw refuse("no-valid-certificate");

  let lastFailure: NodeTokenRefusal = "bad-signature";
  for (const candidate of valid) {
    const key = createPublicKey({ key: Buffer.from(candidate.spkiDer), format: "der", type: "spki" });
    const algorithm = algorithmFor(key);
    if (!algorithm) continue;
    try {
      const { payload, protectedHeader } = await jwtVerify(token, key, {
        algorithms: [algorithm], // never `none`, never an algorithm the key was not made for
        audience,
        subject: nodeId,
        clockTolerance: CLOCK_SKEW_SECONDS,
        currentDate: now,
        requiredClaims: ["iat", "exp", "sub", "aud"],
      });
      if (protectedHeader.kid !== nodeId) throw refuse("wrong-kid");
      if (payload.exp! - payload.iat! > MAX_TOKEN_LIFETIME_SECONDS) throw refuse("lifetime-too-long");
      if (payload.iat! > now.getTime() / 1000 + CLOCK_SKEW_SECONDS) throw refuse("not-yet-valid");
      return candidate;
    } catch (error) {
      if (error instanceof NodeTokenError) throw error;
      lastFailure = refusalOf(error);
      // another certificate's key may still verify it (a renewal may change the key type);
      // past the signature, no other key changes the verdict
      if (lastFailure !== "bad-signature" && lastFailure !== "disallowed-algorithm") throw refuse(lastFailure);
    }
  }
  throw refuse(lastFailure);
}

function refusalOf(error: unknown): NodeTokenRefusal {
  if (error instanceof errors.JWTExpired) return "expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return "wrong-audience";
    if (error.claim === "sub") return "wrong-subject";
    if (error.claim === "nbf" || error.claim === "iat") return "not-yet-valid";
    return "malformed";
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return "disallowed-algorithm";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "bad-signature";
  return "malformed";
}
