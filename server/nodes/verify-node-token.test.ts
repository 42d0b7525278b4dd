import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { SignJWT, UnsecuredJWT } from "jose";
import { describe, expect, it } from "vitest";
import { claimedNodeId, verifyNodeToken, type NodeKey } from "./verify-node-token";

// SPEC D2, every refusal the issue lists, at the verification itself (the
// uniform 401 over HTTP is tested with the methods).
const NODE = "node_01k9zz4m6y3d2n8q5r7t1v0w2x";
const AUD = "/api/compute/inventory/report";
const now = new Date("2026-12-03T12:00:00Z");
const seconds = now.getTime() / 1000;

const pair = (type: "ec" | "rsa" | "ed25519") =>
  type === "ec"
    ? generateKeyPairSync("ec", { namedCurve: "P-256" })
    : type === "rsa"
      ? generateKeyPairSync("rsa", { modulusLength: 2048 })
      : generateKeyPairSync("ed25519");
const keyOf = (publicKey: KeyObject, notAfter = new Date(now.getTime() + 86_400_000)): NodeKey => ({
  spkiDer: publicKey.export({ type: "spki", format: "der" }),
  notAfter,
});
const ec = pair("ec");

function sign(privateKey: KeyObject, alg: string, claims: { iat?: number; exp?: number; aud?: string; sub?: string; kid?: string } = {}) {
  const iat = claims.iat ?? seconds;
  return new SignJWT({})
    .setProtectedHeader({ alg, kid: claims.kid ?? NODE })
    .setSubject(claims.sub ?? NODE)
    .setAudience(claims.aud ?? AUD)
    .setIssuedAt(iat)
    .setExpirationTime(claims.exp ?? iat + 120)
    .sign(privateKey);
}
const verify = (token: string, keys: NodeKey[] = [keyOf(ec.publicKey)], at = now) =>
  verifyNodeToken({ token, nodeId: NODE, keys, audience: AUD, now: at });
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => "accepted",
    (error: { cause?: string }) => error.cause,
  );

describe("verifyNodeToken", () => {
  it("accepts ES256 (P-256), RS256 (RSA) and EdDSA (Ed25519) signed by the certificate's key", async () => {
    await expect(verify(await sign(ec.privateKey, "ES256"))).resolves.toMatchObject({ spkiDer: expect.any(Uint8Array) });
    const rsa = pair("rsa");
    await expect(verify(await sign(rsa.privateKey, "RS256"), [keyOf(rsa.publicKey)])).resolves.toMatchObject({
      spkiDer: expect.any(Uint8Array),
    });
    const ed = pair("ed25519");
    await expect(verify(await sign(ed.privateKey, "EdDSA"), [keyOf(ed.publicKey)])).resolves.toMatchObject({
      spkiDer: expect.any(Uint8Array),
    });
  });

  it("tolerates 60 s of clock skew either way", async () => {
    expect(await refusal(verify(await sign(ec.privateKey, "ES256", { iat: seconds + 50 })))).toBe("accepted");
    expect(await refusal(verify(await sign(ec.privateKey, "ES256", { iat: seconds - 170, exp: seconds - 50 })))).toBe("accepted");
  });

  it.each([
    ["another key", async () => verify(await sign(pair("ec").privateKey, "ES256")), "bad-signature"],
    ["expired", async () => verify(await sign(ec.privateKey, "ES256", { iat: seconds - 400, exp: seconds - 100 })), "expired"],
    ["exp more than 300 s after iat", async () => verify(await sign(ec.privateKey, "ES256", { exp: seconds + 301 })), "lifetime-too-long"],
    [
      "issued in the future beyond the skew",
      async () => verify(await sign(ec.privateKey, "ES256", { iat: seconds + 120 })),
      "not-yet-valid",
    ],
    ["the wrong audience", async () => verify(await sign(ec.privateKey, "ES256", { aud: "/api/compute/nodes/renew" })), "wrong-audience"],
    [
      "another node's subject",
      async () => verify(await sign(ec.privateKey, "ES256", { sub: "node_01k9zz4m6y3d2n8q5r7t1v0w2y" })),
      "wrong-subject",
    ],
    ["another kid", async () => verify(await sign(ec.privateKey, "ES256", { kid: "node_01k9zz4m6y3d2n8q5r7t1v0w2y" })), "wrong-kid"],
    [
      "alg none",
      async () =>
        verify(
          new UnsecuredJWT({})
            .setSubject(NODE)
            .setAudience(AUD)
            .setIssuedAt(seconds)
            .setExpirationTime(seconds + 60)
            .encode(),
        ),
      "disallowed-algorithm",
    ],
    [
      "HS256 keyed with the public key (algorithm confusion)",
      async () => {
        const secret = new Uint8Array(ec.publicKey.export({ type: "spki", format: "der" }));
        const token = await new SignJWT({})
          .setProtectedHeader({ alg: "HS256", kid: NODE })
          .setSubject(NODE)
          .setAudience(AUD)
          .setIssuedAt(seconds)
          .setExpirationTime(seconds + 60)
          .sign(secret);
        return verify(token);
      },
      "disallowed-algorithm",
    ],
    [
      "an expired certificate",
      async () => verify(await sign(ec.privateKey, "ES256"), [keyOf(ec.publicKey, new Date(now.getTime() - 1))]),
      "no-valid-certificate",
    ],
    ["not a JWT", async () => verify("not.a.jwt"), "malformed"],
  ])("refuses %s", async (_, attempt, cause) => {
    expect(await refusal(attempt())).toBe(cause);
  });

  it("after a renewal: the new key and the previous one (until its notAfter) both verify", async () => {
    const renewed = pair("ed25519");
    const keys = [keyOf(renewed.publicKey), keyOf(ec.publicKey, new Date(now.getTime() + 3_600_000))];
    expect(await refusal(verify(await sign(renewed.privateKey, "EdDSA"), keys))).toBe("accepted");
    expect(await refusal(verify(await sign(ec.privateKey, "ES256"), keys))).toBe("accepted");
    // the key that verified is returned: nodes/renew takes only the newest (SPEC G6)
    expect(await verify(await sign(renewed.privateKey, "EdDSA"), keys)).toBe(keys[0]);
    expect(await verify(await sign(ec.privateKey, "ES256"), keys)).toBe(keys[1]);
    const later = new Date(now.getTime() + 7_200_000);
    // past the previous certificate's notAfter only the Ed25519 key is left, which no ES256 token can be for
    expect(await refusal(verify(await sign(ec.privateKey, "ES256", { iat: later.getTime() / 1000 }), keys, later))).toBe(
      "disallowed-algorithm",
    );
  });

  it("claimedNodeId reads the kid before verification, only in the node id form", async () => {
    expect(claimedNodeId(await sign(ec.privateKey, "ES256"))).toBe(NODE);
    expect(claimedNodeId(await sign(ec.privateKey, "ES256", { kid: "bcsk_x" }))).toBeNull();
    expect(claimedNodeId("garbage")).toBeNull();
  });
});
