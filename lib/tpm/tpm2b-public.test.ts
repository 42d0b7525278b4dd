import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { TPM_ALG, TPMA_OBJECT } from "./tpm-constants";
import { TpmFormatError } from "./tpm-format-error";
import { AK_ATTRIBUTES, attestationKeyProblems, encodeTpm2bPublic, parseTpm2bPublic, tpmName } from "./tpm2b-public";

// `tpm2_createak -G ecc -g sha256 -s ecdsa -u ak.pub -n ak.name` on swtpm.
const CREATEAK_PUB = Buffer.from(
  "00580023000b00050072000000100018000b000300100020b785b6236e315037a8ccde1e2e47ac84a8eeef56a5d74ea1c2f58e08d4b52312" +
    "0020713652c6885d67927b6481900d958357afa788dea2408630345737ec00e15382",
  "hex",
);
const CREATEAK_NAME = "000bb7bf9bbb764187ac486bac3486e32ab08df1e69608f91dde78376b9710a384dc";

const newAk = (objectAttributes?: number) =>
  encodeTpm2bPublic({ publicKey: generateKeyPairSync("ec", { namedCurve: "prime256v1" }).publicKey, objectAttributes });

/** `bytes` with its TPM2B size rewritten to match its new length. */
function resized(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  copy.writeUInt16BE(copy.length - 2);
  return copy;
}

describe("parseTpm2bPublic", () => {
  it("reads tpm2_createak's AK and computes the Name tpm2-tools wrote", () => {
    const pub = parseTpm2bPublic(CREATEAK_PUB);
    expect(pub).toMatchObject({
      type: "ecc",
      nameAlg: TPM_ALG.SHA256,
      objectAttributes: AK_ATTRIBUTES,
      curveId: 3,
      symmetric: null,
      kdf: null,
    });
    expect(pub.scheme).toEqual({ scheme: TPM_ALG.ECDSA, hashAlg: TPM_ALG.SHA256 });
    expect(pub.publicArea).toEqual(CREATEAK_PUB.subarray(2));
    expect(tpmName(pub).toString("hex")).toBe(CREATEAK_NAME);
  });

  it("is what encodeTpm2bPublic lays out for the same point, byte for byte", () => {
    const pub = parseTpm2bPublic(CREATEAK_PUB);
    if (pub.type !== "ecc") throw new Error("expected an ECC key");
    const jwk = { kty: "EC", crv: "P-256", x: pub.x.toString("base64url"), y: pub.y.toString("base64url") };
    expect(encodeTpm2bPublic({ publicKey: createPublicKey({ key: jwk, format: "jwk" }) })).toEqual(CREATEAK_PUB);
  });

  const cases: Array<[string, (ak: Buffer) => Buffer, RegExp]> = [
    ["empty", () => Buffer.alloc(0), /truncated: it ends inside its size/],
    ["cut short", (ak) => resized(ak.subarray(0, 40)), /truncated: it ends inside ECC point x/],
    ["a size that disagrees", (ak) => Buffer.concat([ak, Buffer.from([0])]), /says it holds 88 bytes but 89 follow/],
    ["trailing bytes", (ak) => resized(Buffer.concat([ak, Buffer.from([0, 0])])), /2 unexpected trailing bytes/],
    ["a keyed-hash type", (ak) => patch(ak, 2, TPM_ALG.KEYEDHASH), /key type 0x0008 is not supported/],
    ["SHA-1 as name algorithm", (ak) => patch(ak, 4, TPM_ALG.SHA1), /SHA-1 is too weak/],
    ["an unknown name algorithm", (ak) => patch(ak, 4, 0x0099), /name algorithm not supported \(0x0099 is unknown/],
    ["an unknown scheme", (ak) => patch(ak, 14, 0x0099), /unknown ECC scheme 0x0099/],
    ["an unknown curve", (ak) => patch(ak, 18, 0x0099), /unknown ECC curve 0x0099/],
    ["an oversized coordinate", (ak) => patch(ak, 22, 33), /ECC point x is 33 bytes, more than the 32 allowed/],
  ];
  it.each(cases)("names what is wrong with %s", (_, mangle, message) => {
    expect(() => parseTpm2bPublic(mangle(newAk()))).toThrow(TpmFormatError);
    expect(() => parseTpm2bPublic(mangle(newAk()))).toThrow(message);
  });
});

function patch(bytes: Buffer, offset: number, value: number): Buffer {
  const copy = Buffer.from(bytes);
  copy.writeUInt16BE(value, offset);
  return copy;
}

describe("attestationKeyProblems", () => {
  it("finds none in a restricted signing key bound to its TPM", () => {
    expect(attestationKeyProblems(parseTpm2bPublic(CREATEAK_PUB))).toEqual([]);
  });

  it("names each missing attribute", () => {
    const problems = attestationKeyProblems(parseTpm2bPublic(newAk(AK_ATTRIBUTES & ~TPMA_OBJECT.fixedTPM & ~TPMA_OBJECT.restricted)));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^lacks fixedTPM/);
    expect(problems[1]).toMatch(/^is not restricted/);
  });

  it("refuses a decryption key, and a key made outside the TPM", () => {
    const attributes = (AK_ATTRIBUTES & ~TPMA_OBJECT.sign & ~TPMA_OBJECT.sensitiveDataOrigin) | TPMA_OBJECT.decrypt;
    expect(attestationKeyProblems({ objectAttributes: attributes })).toEqual([
      expect.stringMatching(/^lacks sensitiveDataOrigin/),
      "is not a signing key",
      "is a decryption key",
    ]);
  });
});
