import { generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { encodeTpm2bPublic, parseTpm2bPublic } from "./tpm2b-public";
import { TpmFormatError } from "./tpm-format-error";
import { parseQuoteAttest } from "./tpms-attest";
import { parseTpmSignature } from "./tpmt-signature";
import { QuoteRejectedError, verifyQuote, type VerifyQuoteInput } from "./verify-quote";

// Quotes tpm2_quote made on swtpm (fixtures/tpm-quotes/README.md), so the
// parsers and checks are tested where swtpm is missing; verify-quote.swtpm.test.ts
// makes fresh ones on a running TPM.

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/tpm-quotes/${name}`, import.meta.url));
const captured = JSON.parse(fixture("quote.json").toString("utf8")) as {
  nonce: string;
  pcrSelection: number[];
  pcrs: Record<string, string>;
};

function input(kind: "ecc" | "rsa", change: Partial<VerifyQuoteInput> = {}): VerifyQuoteInput {
  return {
    ak: parseTpm2bPublic(fixture(`${kind}-ak.pub`)),
    attest: fixture(`${kind}-quote.msg`),
    signature: fixture(`${kind}-quote.sig`),
    nonce: Buffer.from(captured.nonce, "hex"),
    pcrSelection: captured.pcrSelection,
    pcrs: captured.pcrs,
    ...change,
  };
}

function rejection(attempt: () => unknown): { reason: string; message: string } {
  try {
    attempt();
  } catch (error) {
    if (error instanceof QuoteRejectedError) return { reason: error.reason, message: error.message };
    throw error;
  }
  throw new Error("the quote was accepted");
}

const withByte = (bytes: Buffer, at: number, value: number) => {
  const copy = Buffer.from(bytes);
  copy[at] = value;
  return copy;
};

describe("parseQuoteAttest on tpm2_quote's --message", () => {
  it("reads the nonce, the selection and the digest", () => {
    const quote = parseQuoteAttest(fixture("ecc-quote.msg"));
    expect(quote.extraData.toString("hex")).toBe(captured.nonce);
    expect(quote.pcrSelection).toEqual([{ hashAlg: 0x000b, indices: [0, 1, 2, 3, 4, 5, 6, 7] }]);
    expect(quote.pcrDigest).toHaveLength(32);
    expect(quote.qualifiedSigner.readUInt16BE(0)).toBe(0x000b);
    expect(quote.clockInfo.safe).toBe(true);
  });

  it.each([
    ["truncated inside the nonce", (m: Buffer) => m.subarray(0, 50), /TPMS_ATTEST is truncated: it ends inside extraData/],
    ["truncated inside the PCR digest", (m: Buffer) => m.subarray(0, m.length - 1), /TPMS_ATTEST is truncated: it ends inside pcrDigest/],
    ["with a trailing byte", (m: Buffer) => Buffer.concat([m, Buffer.of(0)]), /TPMS_ATTEST has 1 unexpected trailing byte/],
    ["claiming 200 PCR banks", (m: Buffer) => patchBankCount(m, 200), /claims 200 banks/],
  ])("refuses a message %s", (_, change, message) => {
    expect(() => parseQuoteAttest(change(fixture("ecc-quote.msg")))).toThrow(message);
  });
});

/** The TPML_PCR_SELECTION count sits after the fixed-size parts of these fixtures. */
function patchBankCount(message: Buffer, count: number): Buffer {
  const copy = Buffer.from(message);
  const quote = parseQuoteAttest(message);
  const at = 4 + 2 + 2 + quote.qualifiedSigner.length + 2 + quote.extraData.length + 17 + 8;
  copy.writeUInt32BE(count, at);
  return copy;
}

describe("parseTpmSignature on tpm2_quote's --signature", () => {
  it("reads ECDSA r and s, and an RSASSA block", () => {
    expect(parseTpmSignature(fixture("ecc-quote.sig"))).toMatchObject({
      sigAlg: 0x0018,
      hashAlg: 0x000b,
      ecdsa: { r: expect.any(Buffer), s: expect.any(Buffer) },
    });
    expect(parseTpmSignature(fixture("rsa-quote.sig")).rsa).toHaveLength(256);
  });

  it.each([
    ["a NULL signature", Buffer.of(0x00, 0x10), /signature algorithm 0x0010 is not supported/],
    ["a SHA-1 signature", Buffer.of(0x00, 0x18, 0x00, 0x04), /SHA-1 is too weak/],
    ["a truncated one", Buffer.of(0x00, 0x18, 0x00, 0x0b, 0x00, 0x20, 0x01), /TPMT_SIGNATURE is truncated: it ends inside ECDSA r/],
    ["an empty one", Buffer.alloc(0), /TPMT_SIGNATURE is truncated: it ends inside sigAlg/],
  ])("refuses %s", (_, bytes, message) => {
    expect(() => parseTpmSignature(bytes)).toThrow(message);
  });
});

describe.each(["ecc", "rsa"] as const)("verifyQuote with the %s AK's quote", (kind) => {
  it("accepts it, answering the attested values in selection order", () => {
    const verified = verifyQuote(input(kind));
    expect(verified.pcrs).toEqual(captured.pcrs);
    expect(Object.keys(verified.pcrs)).toEqual(["0", "1", "2", "3", "4", "5", "6", "7"]);
  });

  it("accepts PCR values in upper-case hex and a selection given in another order", () => {
    const pcrs = Object.fromEntries(Object.entries(captured.pcrs).map(([index, value]) => [index, value.toUpperCase()]));
    expect(verifyQuote(input(kind, { pcrs, pcrSelection: [7, 6, 5, 4, 3, 2, 1, 0] })).pcrs).toEqual(captured.pcrs);
  });

  it.each<[string, () => Partial<VerifyQuoteInput>, string]>([
    ["another nonce", () => ({ nonce: Buffer.alloc(32, 1) }), "wrong-nonce"],
    ["an altered PCR value", () => ({ pcrs: { ...captured.pcrs, "3": "00".repeat(32) } }), "pcr-digest-mismatch"],
    ["another selection", () => ({ pcrSelection: [0, 1, 2, 3, 4, 5, 6], pcrs: without(captured.pcrs, "7") }), "wrong-pcr-selection"],
    ["another AK", () => ({ ak: otherAk(kind) }), "bad-signature"],
    ["an altered message", () => ({ attest: withByte(fixture(`${kind}-quote.msg`), 80, 0x42) }), "bad-signature"],
    ["an altered signature", () => ({ signature: alteredSignature(kind) }), "bad-signature"],
    ["another magic", () => ({ attest: withByte(fixture(`${kind}-quote.msg`), 0, 0x00) }), "not-tpm-generated"],
    ["another attestation type", () => ({ attest: withByte(fixture(`${kind}-quote.msg`), 5, 0x17) }), "not-a-quote"],
  ])("rejects %s", (_, change, reason) => {
    expect(rejection(() => verifyQuote(input(kind, change())))).toMatchObject({ reason });
  });

  it("names the selection it got and the one it asked for", () => {
    const { message } = rejection(() =>
      verifyQuote(input(kind, { pcrSelection: [0, 1, 2, 3, 4, 5, 6], pcrs: without(captured.pcrs, "7") })),
    );
    expect(message).toBe("the quote covers sha256:0,1,2,3,4,5,6,7, but the challenge asked for sha256:0,1,2,3,4,5,6");
  });

  it("answers every truncation of the message with a TpmFormatError or a rejection, never anything else", () => {
    const message = fixture(`${kind}-quote.msg`);
    for (let length = 0; length < message.length; length += 1) {
      let thrown: unknown = null;
      try {
        verifyQuote(input(kind, { attest: message.subarray(0, length) }));
      } catch (error) {
        thrown = error;
      }
      expect(thrown instanceof TpmFormatError || thrown instanceof QuoteRejectedError, `length ${length}: ${String(thrown)}`).toBe(true);
    }
  });
});

describe("verifyQuote's input checks", () => {
  it.each<[string, Partial<VerifyQuoteInput>, RegExp]>([
    ["a missing PCR", { pcrs: without(captured.pcrs, "5") }, /^pcrs: missing PCR 5$/],
    ["a PCR not asked for", { pcrs: { ...captured.pcrs, "9": "00".repeat(32) } }, /^pcrs: PCR 9 was not asked for/],
    ["a value that is not SHA-256 hex", { pcrs: { ...captured.pcrs, "2": "abc" } }, /^pcrs: PCR 2 is not a SHA-256 value in hex/],
    ["an index that is not one", { pcrs: { ...captured.pcrs, "01": "00".repeat(32) } }, /^pcrs: "01" is not a PCR index/],
    ["a signature of the wrong kind", { signature: fixture("rsa-quote.sig") }, /is an RSA signature but the AK is an ECC key/],
    ["garbage", { attest: Buffer.from("not a quote at all") }, /not TPM_GENERATED_VALUE/],
  ])("refuses %s", (_, change, message) => {
    expect(() => verifyQuote(input("ecc", change))).toThrow(message);
  });
});

function without(pcrs: Record<string, string>, index: string): Record<string, string> {
  const copy = { ...pcrs };
  delete copy[index];
  return copy;
}

function otherAk(kind: "ecc" | "rsa") {
  if (kind === "ecc")
    return parseTpm2bPublic(encodeTpm2bPublic({ publicKey: generateKeyPairSync("ec", { namedCurve: "prime256v1" }).publicKey }));
  // the RSA AK's TPM2B_PUBLIC with another modulus: same shape, another key
  const pub = fixture("rsa-ak.pub");
  const other = Buffer.from(pub);
  other[other.length - 10]! ^= 0xff;
  return parseTpm2bPublic(other);
}

/** The signature with one bit of its last byte flipped. */
function alteredSignature(kind: "ecc" | "rsa"): Buffer {
  const signature = Buffer.from(fixture(`${kind}-quote.sig`));
  signature[signature.length - 1]! ^= 0x01;
  return signature;
}
