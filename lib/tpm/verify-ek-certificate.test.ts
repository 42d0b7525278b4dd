import { createPublicKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { assertEkCertificateIsFor, readEkCertificateKey } from "./ek-certificate-key";
import { EkCertificateInputError, verifyEkCertificate, type VerifyEkCertificateInput } from "./verify-ek-certificate";

// EK certificates swtpm_setup + swtpm_localca made (fixtures/tpm-ek-certificates/README.md),
// so path validation is tested where swtpm is missing; verify-ek-certificate.swtpm.test.ts
// does the same against certificates a TPM makes in the test.

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/tpm-ek-certificates/${name}`, import.meta.url), "utf8");
const ekRsa = fixture("ek-rsa.pem");
const ekEcc = fixture("ek-ecc-p384.pem");
const issuer = fixture("localca-issuer.pem");
const root = fixture("localca-root.pem");
const now = new Date("2027-01-01T00:00:00Z");

/** The certificate with one bit of its signature flipped (the signature is the DER's last bytes). */
function tampered(pem: string): string {
  const der = Buffer.from(pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, ""), "base64");
  der[der.length - 1]! ^= 0x01;
  return `-----BEGIN CERTIFICATE-----\n${der.toString("base64").replace(/.{64}/g, "$&\n")}\n-----END CERTIFICATE-----\n`;
}

describe("verifyEkCertificate", () => {
  it.each([
    ["RSA", ekRsa, "02"],
    ["ECC P-384", ekEcc, "03"],
  ])(
    "accepts the %s EK certificate chained through the local CA to its root, tolerating the TCG profile",
    async (_, certificate, serial) => {
      const verdict = await verifyEkCertificate({ certificate, chain: issuer, trustedRoots: [root], at: now });
      expect(verdict).toEqual({
        ok: true,
        issuer: "CN=swtpm-localca",
        serial,
        chain: [
          { subject: "CN=unknown", issuer: "CN=swtpm-localca", serial },
          { subject: "CN=swtpm-localca", issuer: "CN=swtpm-localca-rootca", serial: expect.any(String) },
          { subject: "CN=swtpm-localca-rootca", issuer: "CN=swtpm-localca-rootca", serial: expect.any(String) },
        ],
      });
    },
  );

  it("accepts an intermediate the trust store holds as a root", async () => {
    expect(await verifyEkCertificate({ certificate: ekRsa, trustedRoots: [issuer], at: now })).toMatchObject({ ok: true });
  });

  it.each([
    [
      "a trust store without its root",
      { chain: issuer, trustedRoots: [fixture("other-root.pem")] },
      /no certificate named "CN=swtpm-localca-rootca"/,
    ],
    [
      "the intermediate missing from the chain",
      { trustedRoots: [root] },
      /no certificate named "CN=swtpm-localca" is in the trust store or the chain/,
    ],
    ["an empty trust store", { chain: issuer, trustedRoots: [] }, /no certificate named "CN=swtpm-localca-rootca"/],
    [
      "a root with the right name but another key",
      { chain: issuer, trustedRoots: [fixture("impostor-root.pem")] },
      /no certificate named "CN=swtpm-localca-rootca"/,
    ],
    [
      "a chain that brings its own root",
      { chain: issuer + root, trustedRoots: [fixture("other-root.pem")] },
      /ends at "CN=swtpm-localca-rootca", which is not in the trust store/,
    ],
  ])("says unknown-issuer for %s", async (_, input, detail) => {
    const verdict = await verifyEkCertificate({ certificate: ekRsa, at: now, ...input });
    expect(verdict).toEqual({
      ok: false,
      reason: "unknown-issuer",
      issuer: "CN=swtpm-localca",
      serial: "02",
      detail: expect.stringMatching(detail),
    });
  });

  it("says bad-signature, naming the certificate, when the EK certificate's signature is altered", async () => {
    const verdict = await verifyEkCertificate({ certificate: tampered(ekRsa), chain: issuer, trustedRoots: [root], at: now });
    expect(verdict).toMatchObject({ ok: false, reason: "bad-signature", serial: "02" });
    expect(verdict.ok || verdict.detail).toMatch(
      /signature of "CN=unknown" \(serial 02\) does not verify with the key of "CN=swtpm-localca"/,
    );
  });

  it("says bad-signature when the intermediate's signature is altered", async () => {
    const verdict = await verifyEkCertificate({ certificate: ekRsa, chain: tampered(issuer), trustedRoots: [root], at: now });
    expect(verdict).toMatchObject({ ok: false, reason: "bad-signature", detail: expect.stringMatching(/signature of "CN=swtpm-localca"/) });
  });

  it("says expired after the chain's end, and not-yet-valid before it begins", async () => {
    const after = await verifyEkCertificate({
      certificate: ekRsa,
      chain: issuer,
      trustedRoots: [root],
      at: new Date("+010000-01-01T00:00:00Z"),
    });
    expect(after).toMatchObject({
      ok: false,
      reason: "expired",
      detail: expect.stringMatching(/"CN=unknown" \(serial 02\) expired at 9999-12-31T23:59:59/),
    });
    const before = await verifyEkCertificate({
      certificate: ekRsa,
      chain: issuer,
      trustedRoots: [root],
      at: new Date("2020-01-01T00:00:00Z"),
    });
    expect(before).toMatchObject({ ok: false, reason: "not-yet-valid", detail: expect.stringMatching(/is not valid before 2026-/) });
  });

  it("refuses a CA's certificate sent as the EK certificate, though it chains", async () => {
    const verdict = await verifyEkCertificate({ certificate: issuer, trustedRoots: [root], at: now });
    expect(verdict).toMatchObject({
      ok: false,
      reason: "invalid-chain",
      detail: "the EK certificate is a CA certificate (basicConstraints cA)",
    });
  });

  it.each<[string, Partial<VerifyEkCertificateInput>, string, RegExp]>([
    ["not PEM", { certificate: "hello" }, "ekCertificate", /is not a PEM CERTIFICATE/],
    ["a public key", { certificate: fixture("ek-rsa.pub.pem") }, "ekCertificate", /is a PEM PUBLIC KEY/],
    ["two certificates", { certificate: ekRsa + ekEcc }, "ekCertificate", /holds 2 PEM blocks/],
    [
      "DER that is not a certificate",
      { certificate: "-----BEGIN CERTIFICATE-----\nMAMCAQE=\n-----END CERTIFICATE-----\n" },
      "ekCertificate",
      /is not an X.509 certificate/,
    ],
    [
      "a certificate with bytes after it",
      { certificate: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n" },
      "ekCertificate",
      /is a certificate followed by unexpected bytes/,
    ],
    [
      "a chain with stray text",
      { certificate: ekRsa, chain: `${issuer}\nhello` },
      "ekCertificateChain",
      /holds text outside its PEM CERTIFICATE blocks/,
    ],
    [
      "a chain with a key in it",
      { certificate: ekRsa, chain: fixture("ek-rsa.pub.pem") },
      "ekCertificateChain",
      /block 1 is a PEM PUBLIC KEY/,
    ],
  ])("refuses %s as input, naming the field", async (_, input, field, message) => {
    const attempt = verifyEkCertificate({ certificate: ekRsa, trustedRoots: [root], at: now, ...input });
    const error = await attempt.then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(EkCertificateInputError);
    expect(error).toMatchObject({ field });
    expect((error as Error).message).toMatch(new RegExp(`^${field} ${message.source}`));
  });
});

describe("the EK a certificate certifies", () => {
  it.each([
    ["RSA 2048", ekRsa, "ek-rsa.pub.pem"],
    ["ECC P-384", ekEcc, "ek-ecc-p384.pub.pem"],
  ])("is the %s key tpm2_createek made on that TPM", (description, certificate, ekFile) => {
    const ek = createPublicKey(fixture(ekFile));
    expect(readEkCertificateKey(certificate).description).toBe(description);
    expect(assertEkCertificateIsFor(certificate, ek).der).toEqual(ek.export({ format: "der", type: "spki" }));
  });

  it("refuses another EK with a 400 naming ekPublicKey", () => {
    const refuse = () => assertEkCertificateIsFor(ekRsa, createPublicKey(fixture("ek-ecc-p384.pub.pem")));
    expect(refuse).toThrow(EkCertificateInputError);
    expect(refuse).toThrow(
      /^ekPublicKey is not the key the ekCertificate certifies \(it certifies an RSA 2048 EK with SHA-256 [0-9a-f]{64}\)$/,
    );
  });
});
