import { readFileSync } from "node:fs";
import * as asn1js from "asn1js";
import { describe, expect, it } from "vitest";
import { ApiError } from "../api/errors";
import { endorsementKeySha256, verifyCsr } from "./machine-keys";
import { subtle, x509 } from "./x509";

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), "utf8");

describe("endorsementKeySha256", () => {
  it("hashes the DER SubjectPublicKeyInfo of the allowed EK fixture to the value the seed allow-lists", () => {
    expect(endorsementKeySha256(fixture("tpm-ek-allowed.pem"))).toBe("15426fb055f5461484bf419f7e67ba400ddfc2b54d90981cb9f65f6ffc228af1");
  });

  it("the repo's copy is the shared fixture, byte for byte", () => {
    const shared = new URL("../../../shared/fixtures/tpm-ek-allowed.pem", import.meta.url);
    let sharedText: string;
    try {
      sharedText = readFileSync(shared, "utf8");
    } catch {
      return; // shared/ is not beside this checkout
    }
    expect(fixture("tpm-ek-allowed.pem")).toBe(sharedText);
  });

  it("refuses a PEM that is no public key, naming tpm.ekPublicKey", () => {
    expect(() => endorsementKeySha256("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----")).toThrowError(
      expect.objectContaining({ code: "INVALID_ARGUMENT", details: [expect.objectContaining({ field: "tpm.ekPublicKey" })] }),
    );
  });
});

describe("verifyCsr", () => {
  const alg = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };
  const makeCsr = async (name = "CN=node-1.test") => {
    const keys = (await subtle.generateKey(alg, true, ["sign", "verify"])) as CryptoKeyPair;
    return x509.Pkcs10CertificateRequestGenerator.create({ name, keys, signingAlgorithm: alg });
  };

  it("accepts a self-signed CSR and hashes its DER", async () => {
    const csr = await makeCsr();
    const verified = await verifyCsr(csr.toString("pem"));
    const { createHash } = await import("node:crypto");
    expect(verified.sha256).toBe(createHash("sha256").update(Buffer.from(csr.rawData)).digest("hex"));
    expect(Buffer.from(verified.publicKey.rawData)).toEqual(Buffer.from(csr.publicKey.rawData));
  });

  it("refuses a CSR whose subject was changed after signing", async () => {
    const der = Buffer.from((await makeCsr("CN=node-1.test")).rawData);
    der[der.indexOf("node-1")] = "x".charCodeAt(0);
    const pem = x509.PemConverter.encode(new Uint8Array(der).buffer, "CERTIFICATE REQUEST");
    const error = await verifyCsr(pem).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "INVALID_ARGUMENT", details: [{ field: "csr" }] });
  });

  // A CSR is SEQUENCE { certificationRequestInfo, signatureAlgorithm, signature }:
  // its parts exchanged with asn1js, which encodes the lengths again.
  const withParts = (der: ArrayBuffer, parts: { algorithm?: asn1js.Sequence; signature?: asn1js.BitString }) => {
    const csr = asn1js.fromBER(der).result as asn1js.Sequence;
    const [info, algorithm, signature] = csr.valueBlock.value;
    const rebuilt = new asn1js.Sequence({ value: [info!, parts.algorithm ?? algorithm!, parts.signature ?? signature!] });
    return x509.PemConverter.encode(rebuilt.toBER(), "CERTIFICATE REQUEST");
  };
  const signatureOf = (der: ArrayBuffer) => (asn1js.fromBER(der).result as asn1js.Sequence).valueBlock.value[2] as asn1js.BitString;
  const algorithmIdentifier = (oid: string, nullParameters: boolean) =>
    new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: oid }), ...(nullParameters ? [new asn1js.Null()] : [])] });
  const refusedAsUnverified = async (pem: string) => {
    const error = await verifyCsr(pem).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: "INVALID_ARGUMENT",
      details: [{ field: "csr", message: "signature does not verify with the request's own public key" }],
    });
  };

  it("the same CSR taken apart and put together again still verifies (the test's own check)", async () => {
    const csr = await makeCsr();
    await expect(verifyCsr(withParts(csr.rawData, {}))).resolves.toMatchObject({ sha256: expect.any(String) });
  });

  it("refuses a CSR carrying another request's valid signature", async () => {
    const mine = await makeCsr("CN=node-1.test");
    const theirs = await makeCsr("CN=node-1.test");
    await refusedAsUnverified(withParts(mine.rawData, { signature: signatureOf(theirs.rawData) }));
  });

  it("refuses a signature algorithm that does not fit the key, even over a genuine signature", async () => {
    // an EC key's genuine ECDSA signature, named sha256WithRSAEncryption
    const ec = await makeCsr();
    await refusedAsUnverified(withParts(ec.rawData, { algorithm: algorithmIdentifier("1.2.840.113549.1.1.11", true) }));
    // an RSA key's genuine PKCS#1 v1.5 signature, named ecdsa-with-SHA256
    const rsa = { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" };
    const keys = (await subtle.generateKey(rsa, true, ["sign", "verify"])) as CryptoKeyPair;
    const rsaCsr = await x509.Pkcs10CertificateRequestGenerator.create({ name: "CN=rsa.test", keys, signingAlgorithm: rsa });
    await expect(verifyCsr(rsaCsr.toString("pem"))).resolves.toBeDefined();
    await refusedAsUnverified(withParts(rsaCsr.rawData, { algorithm: algorithmIdentifier("1.2.840.10045.4.3.2", false) }));
  });

  it("refuses what does not parse", async () => {
    await expect(verifyCsr("-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----")).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });
});

describe("verifyCsr: one reading of the CSR (SPEC G1)", () => {
  const alg = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };
  const makeCsr = async () => {
    const keys = (await subtle.generateKey(alg, true, ["sign", "verify"])) as CryptoKeyPair;
    return x509.Pkcs10CertificateRequestGenerator.create({ name: "CN=strict.test", keys, signingAlgorithm: alg });
  };
  const pemOf = (der: Buffer, label = "CERTIFICATE REQUEST") =>
    `-----BEGIN ${label}-----\n${der.toString("base64")}\n-----END ${label}-----\n`;

  it.each([
    [
      "a second CSR after it",
      async () => (await makeCsr()).toString("pem") + "\n" + (await makeCsr()).toString("pem"),
      /holds 2 PEM blocks/,
    ],
    [
      "another label",
      async () => pemOf(Buffer.from((await makeCsr()).rawData), "NEW CERTIFICATE REQUEST"),
      /is a PEM NEW CERTIFICATE REQUEST/,
    ],
    ["trailing text", async () => `${(await makeCsr()).toString("pem")}\ntrailing`, /nothing but whitespace/],
    [
      "DER with trailing bytes",
      async () => pemOf(Buffer.concat([Buffer.from((await makeCsr()).rawData), Buffer.from([0, 0])])),
      /trailing or non-canonical DER/,
    ],
  ])("refuses %s, naming csr", async (_, pem, message) => {
    const error = await verifyCsr(await pem()).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "INVALID_ARGUMENT", details: [{ field: "csr", message: expect.stringMatching(message) }] });
  });
});

describe("verifyCsr: the key policy (SPEC F4)", () => {
  const rsa = (modulusLength: number) => ({
    name: "RSASSA-PKCS1-v1_5",
    modulusLength,
    publicExponent: new Uint8Array([1, 0, 1]),
    hash: "SHA-256",
  });
  type Generate = RsaHashedKeyGenParams | EcKeyGenParams | Algorithm;
  type Sign = Parameters<typeof x509.Pkcs10CertificateRequestGenerator.create>[0]["signingAlgorithm"];
  const accepted: [string, Generate, Sign][] = [
    ["P-256", { name: "ECDSA", namedCurve: "P-256" }, { name: "ECDSA", hash: "SHA-256" }],
    ["P-384", { name: "ECDSA", namedCurve: "P-384" }, { name: "ECDSA", hash: "SHA-384" }],
    ["Ed25519", { name: "Ed25519" }, { name: "Ed25519" }],
    ["RSA-2048", rsa(2048), rsa(2048)],
  ];
  for (const [label, generate, signingAlgorithm] of accepted) {
    it(`accepts ${label}`, async () => {
      const keys = (await subtle.generateKey(generate, true, ["sign", "verify"])) as CryptoKeyPair;
      const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: "CN=strong.test", keys, signingAlgorithm });
      await expect(verifyCsr(csr.toString("pem"))).resolves.toMatchObject({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    });
  }

  // Made once with openssl (WebCrypto cannot make P-192 or RSA-512 keys): fixtures/weak-csrs.
  const refused: [string, RegExp][] = [
    ["rsa-1024-sha256.csr.pem", /key is RSA-1024; use P-256, P-384, Ed25519 or RSA of at least 2048 bits/],
    ["rsa-512-sha1.csr.pem", /key is RSA-512/],
    ["p-192-sha256.csr.pem", /key is EC prime192v1/],
    ["rsa-2048-sha1.csr.pem", /is signed with SHA-1; sign it with SHA-256 or stronger/],
    // SPEC G10: an RSA-PSS key (id-RSASSA-PSS) can never sign a node credential
    ["rsa-pss.csr.pem", /key is RSA-PSS; use P-256, P-384, Ed25519 or RSA/],
    // SPEC G10: a P-256 CSR whose key OID was patched to an unknown one (was a 500)
    ["unknown-key-oid.csr.pem", /key cannot be read/],
  ];
  for (const [file, message] of refused) {
    it(`refuses ${file} naming csr`, async () => {
      const error = await verifyCsr(fixture(`weak-csrs/${file}`)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ code: "INVALID_ARGUMENT", details: [{ field: "csr", message: expect.stringMatching(message) }] });
    });
  }
});
