import { createHash, createPublicKey, generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PemFormatError } from "../pem/read-pem";
import { readEndorsementKey } from "./endorsement-key";

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), "utf8");
const pemOf = (der: Buffer, label = "PUBLIC KEY") =>
  `-----BEGIN ${label}-----\n${der.toString("base64").replace(/(.{64})/g, "$1\n")}\n-----END ${label}-----\n`;

describe("readEndorsementKey (SPEC G1)", () => {
  it("reads the demo EK once: its DER, the hash SPEC F5 publishes and the key come from one parse", () => {
    const ek = readEndorsementKey(fixture("tpm-ek-demo.pem"));
    expect(ek.sha256).toBe("23ecae7f12443c728490c84f0a0c06ce53314bb6fe6053c0a1b819cf4a7fd68e");
    expect(createHash("sha256").update(ek.der).digest("hex")).toBe(ek.sha256);
    expect(ek.keyObject.export({ type: "spki", format: "der" })).toEqual(ek.der);
  });

  it("reads an ECC P-256 EK", () => {
    const der = generateKeyPairSync("ec", { namedCurve: "prime256v1" }).publicKey.export({ type: "spki", format: "der" });
    expect(readEndorsementKey(pemOf(der)).keyObject.asymmetricKeyType).toBe("ec");
  });

  it("refuses the two-block body: an allow-listed EK as X509 PUBLIC KEY, then the caller's own", () => {
    const own = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ type: "spki", format: "der" });
    const allowed = createPublicKey(fixture("tpm-ek-allowed.pem")).export({ type: "spki", format: "der" });
    expect(() => readEndorsementKey(pemOf(allowed, "X509 PUBLIC KEY") + pemOf(own))).toThrowError(/holds 2 PEM blocks/);
  });

  it.each([
    [
      "DER with trailing bytes",
      () => pemOf(Buffer.concat([createPublicKey(fixture("tpm-ek-demo.pem")).export({ type: "spki", format: "der" }), Buffer.from([0])])),
      /trailing or non-canonical DER/,
    ],
    ["a DER that is no key", () => pemOf(Buffer.from("3003020101", "hex")), /not a DER SubjectPublicKeyInfo/],
    [
      "RSA-4096",
      () => pemOf(generateKeyPairSync("rsa", { modulusLength: 4096 }).publicKey.export({ type: "spki", format: "der" })),
      /4096 bits is not supported/,
    ],
    [
      "P-384",
      () => pemOf(generateKeyPairSync("ec", { namedCurve: "secp384r1" }).publicKey.export({ type: "spki", format: "der" })),
      /secp384r1 is not supported/,
    ],
    ["Ed25519", () => pemOf(generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "der" })), /ed25519 is not supported/],
  ])("refuses %s", (_, pem, message) => {
    const text = pem();
    expect(() => readEndorsementKey(text)).toThrowError(PemFormatError);
    expect(() => readEndorsementKey(text)).toThrowError(message);
  });
});
