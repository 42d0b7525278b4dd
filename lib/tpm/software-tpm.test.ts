import { createHash, createPublicKey, generateKeyPairSync, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { activateCredential } from "./activate-credential";
import { readEndorsementKey } from "./endorsement-key";
import { makeCredential } from "./make-credential";
import { SoftwareTpm } from "./software-tpm";
import { TpmFormatError } from "./tpm-format-error";

// SPEC F5's published demo EK pair (the repository's copy of ../shared/fixtures).
const DEMO_EK_KEY = readFileSync(new URL("../../fixtures/tpm-ek-demo.key.pem", import.meta.url), "utf8");
const DEMO_EK_SHA256 = "23ecae7f12443c728490c84f0a0c06ce53314bb6fe6053c0a1b819cf4a7fd68e";

const pem = (key: { export(options: { type: "pkcs8"; format: "pem" }): string | Buffer }) =>
  key.export({ type: "pkcs8", format: "pem" }).toString();
const eccEkKey = pem(generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey);

describe.each([
  ["the RSA demo EK", DEMO_EK_KEY],
  ["an ECC P-256 EK", eccEkKey],
])("SoftwareTpm with %s", (_, ekPrivateKeyPem) => {
  const tpm = new SoftwareTpm({ ekPrivateKeyPem });

  it("recovers the secret made for its EK and AK", () => {
    const secret = randomBytes(32);
    const made = makeCredential({ ekPublicKey: readEndorsementKey(tpm.ekPublicKeyPem), objectName: tpm.akName, secret });
    expect(made.credentialBlob.readUInt16BE(0)).toBe(made.credentialBlob.length - 2);
    expect(made.encryptedSecret.readUInt16BE(0)).toBe(made.encryptedSecret.length - 2);
    expect(tpm.activateCredential(made.credentialBlob, made.encryptedSecret)).toEqual(secret);
  });

  it("refuses a blob made for another AK's Name", () => {
    const other = new SoftwareTpm({ ekPrivateKeyPem });
    const made = makeCredential({ ekPublicKey: readEndorsementKey(tpm.ekPublicKeyPem), objectName: other.akName, secret: randomBytes(32) });
    expect(() => tpm.activateCredential(made.credentialBlob, made.encryptedSecret)).toThrow(/integrity check/);
    expect(other.activateCredential(made.credentialBlob, made.encryptedSecret)).toHaveLength(32);
  });

  it("refuses a blob whose ciphertext was altered", () => {
    const made = makeCredential({ ekPublicKey: readEndorsementKey(tpm.ekPublicKeyPem), objectName: tpm.akName, secret: randomBytes(32) });
    const tampered = Buffer.from(made.credentialBlob);
    tampered[tampered.length - 1]! ^= 1;
    expect(() => tpm.activateCredential(tampered, made.encryptedSecret)).toThrow(TpmFormatError);
  });

  it("comes back from its saved state as the same machine", () => {
    const again = new SoftwareTpm(JSON.parse(JSON.stringify(tpm.state)) as SoftwareTpm["state"]);
    expect(again.akPublic).toEqual(tpm.akPublic);
    expect(again.ekPublicKeyPem).toBe(tpm.ekPublicKeyPem);
    const made = makeCredential({
      ekPublicKey: readEndorsementKey(tpm.ekPublicKeyPem),
      objectName: tpm.akName,
      secret: Buffer.from("hello"),
    });
    expect(again.activateCredential(made.credentialBlob, made.encryptedSecret).toString()).toBe("hello");
  });
});

describe("credential activation", () => {
  it("plays the published demo EK", () => {
    const der = createPublicKey(new SoftwareTpm({ ekPrivateKeyPem: DEMO_EK_KEY }).ekPublicKeyPem).export({ type: "spki", format: "der" });
    expect(createHash("sha256").update(der).digest("hex")).toBe(DEMO_EK_SHA256);
  });

  it("refuses a blob under another EK", () => {
    const tpm = new SoftwareTpm({ ekPrivateKeyPem: DEMO_EK_KEY });
    const made = makeCredential({
      ekPublicKey: readEndorsementKey(new SoftwareTpm({ ekPrivateKeyPem: eccEkKey }).ekPublicKeyPem),
      objectName: tpm.akName,
      secret: randomBytes(32),
    });
    expect(() => activateCredential({ ekPrivateKey: DEMO_EK_KEY, objectName: tpm.akName, ...made })).toThrow(TpmFormatError);
  });

  it.each([
    ["RSA 1024", () => generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey, /RSA endorsement key of 1024 bits is not supported/],
    ["P-384", () => generateKeyPairSync("ec", { namedCurve: "secp384r1" }).publicKey, /curve secp384r1 is not supported/],
    ["Ed25519", () => generateKeyPairSync("ed25519").publicKey, /type ed25519 is not supported/],
  ])("names an unsupported %s EK when it is read", (_, key, message) => {
    expect(() => readEndorsementKey(key().export({ type: "spki", format: "pem" }).toString())).toThrow(message);
  });

  it("refuses a secret a TPM would refuse", () => {
    const ekPublicKey = readEndorsementKey(new SoftwareTpm({ ekPrivateKeyPem: DEMO_EK_KEY }).ekPublicKeyPem);
    expect(() => makeCredential({ ekPublicKey, objectName: Buffer.alloc(34, 1), secret: randomBytes(33) })).toThrow(
      /1 to 32 bytes, not 33/,
    );
  });
});
