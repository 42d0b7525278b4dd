import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ApiError } from "../api/errors";
import { endorsementKeySha256, verifyCsr } from "./machine-keys";
import { subtle, x509 } from "./x509";

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), "utf8");

describe("endorsementKeySha256", () => {
  it("hashes the DER SubjectPublicKeyInfo of the allowed EK fixture to the value the seed allow-lists", () => {
    expect(endorsementKeySha256(fixture("tpm-ek-allowed.pem"))).toBe(
      "15426fb055f5461484bf419f7e67ba400ddfc2b54d90981cb9f65f6ffc228af1",
    );
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

  it("refuses what does not parse", async () => {
    await expect(verifyCsr("-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----")).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });
});
