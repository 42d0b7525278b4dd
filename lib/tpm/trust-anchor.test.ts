import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PemFormatError } from "../pem/read-pem";
import { readTrustAnchor } from "./trust-anchor";

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/tpm-ek-certificates/${name}`, import.meta.url), "utf8");

describe("readTrustAnchor", () => {
  it("reads a root's subject, fingerprint and validity", () => {
    const root = readTrustAnchor(fixture("localca-root.pem"));
    expect(root.subject).toBe("CN=swtpm-localca-rootca");
    expect(root.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(root.notBefore.getTime()).toBeLessThan(root.notAfter.getTime());
  });

  it("gives the same fingerprint and PEM however the PEM was wrapped", () => {
    const pem = fixture("localca-root.pem");
    const body = pem.replace(/-----[^-]+-----/g, "").replace(/\s/g, "");
    const rewrapped = `-----BEGIN CERTIFICATE-----\n${body.replace(/.{1,76}/g, "$&\n")}-----END CERTIFICATE-----\n`;
    expect(readTrustAnchor(rewrapped)).toEqual(readTrustAnchor(pem));
  });

  it("refuses an EK certificate: it is no CA", () => {
    expect(() => readTrustAnchor(fixture("ek-rsa.pem"))).toThrow(/not a CA certificate/);
  });

  it("refuses what is not one readable certificate", () => {
    expect(() => readTrustAnchor("hello")).toThrow(PemFormatError);
    expect(() => readTrustAnchor(fixture("localca-root.pem") + fixture("other-root.pem"))).toThrow(/2 PEM blocks/);
    expect(() => readTrustAnchor("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")).toThrow(PemFormatError);
  });
});
