import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SoftwareTpm } from "./software-tpm";
import { parseTpm2bPublic } from "./tpm2b-public";
import { TpmFormatError } from "./tpm-format-error";
import { QuoteRejectedError, verifyQuote } from "./verify-quote";

// The demo's software TPM quotes (SPEC I3), and the verifier that reads
// swtpm's quotes reads its quotes the same way.

const captured = JSON.parse(readFileSync(new URL("../../fixtures/tpm-quotes/quote.json", import.meta.url), "utf8")) as {
  pcrs: Record<string, string>;
};
const SELECTION = [0, 1, 2, 3, 4, 5, 6, 7];

function verify(tpm: SoftwareTpm, nonce: Buffer, quote: ReturnType<SoftwareTpm["quote"]>, akOf = tpm) {
  return verifyQuote({ ak: parseTpm2bPublic(akOf.akPublic), nonce, pcrSelection: SELECTION, ...quote });
}

describe("SoftwareTpm.quote", () => {
  const tpm = SoftwareTpm.withFreshEk();

  it("makes a quote verifyQuote accepts, of PCRs that start at zero", () => {
    const nonce = randomBytes(32);
    const verified = verify(tpm, nonce, tpm.quote({ nonce, pcrSelection: SELECTION }));
    expect(Object.values(verified.pcrs)).toEqual(SELECTION.map(() => "00".repeat(32)));
  });

  it("extends as a TPM does: PCR 3 extended by 32 bytes of 0xaa is the value swtpm reported for the same", () => {
    const fresh = SoftwareTpm.withFreshEk();
    fresh.extendPcr(3, Buffer.alloc(32, 0xaa));
    const nonce = randomBytes(32);
    expect(verify(fresh, nonce, fresh.quote({ nonce, pcrSelection: SELECTION })).pcrs).toEqual(captured.pcrs);
  });

  it("quotes the values as they are now: a later extension changes the next quote", () => {
    const nonce = randomBytes(32);
    const before = tpm.quote({ nonce, pcrSelection: SELECTION });
    tpm.extendPcr(7, randomBytes(32));
    const after = tpm.quote({ nonce, pcrSelection: SELECTION });
    expect(after.pcrs["7"]).not.toBe(before.pcrs["7"]);
    expect(verify(tpm, nonce, after).pcrs["7"]).toBe(after.pcrs["7"]);
    // the old quote's values no longer describe this TPM, but the quote itself still verifies: freshness is the nonce's job
    expect(verify(tpm, nonce, before).pcrs["7"]).toBe(before.pcrs["7"]);
  });

  it.each([
    ["another nonce", (nonce: Buffer) => ({ nonce: Buffer.from(nonce).reverse(), akOf: tpm }), "wrong-nonce"],
    ["another software TPM's AK", (nonce: Buffer) => ({ nonce, akOf: SoftwareTpm.withFreshEk() }), "bad-signature"],
  ])("is rejected when checked with %s", (_, change, reason) => {
    const nonce = randomBytes(32);
    const quote = tpm.quote({ nonce, pcrSelection: SELECTION });
    const { nonce: checkedWith, akOf } = change(nonce);
    const thrown = (() => {
      try {
        verify(tpm, checkedWith, quote, akOf);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(QuoteRejectedError);
    expect((thrown as QuoteRejectedError).reason).toBe(reason);
  });

  it.each([
    ["a PCR beyond 23", () => tpm.extendPcr(24, Buffer.alloc(32))],
    ["a digest that is not SHA-256's size", () => tpm.extendPcr(0, Buffer.alloc(20))],
    ["a selection beyond 23", () => tpm.quote({ nonce: randomBytes(32), pcrSelection: [0, 30] })],
  ])("refuses %s", (_, attempt) => {
    expect(attempt).toThrow(TpmFormatError);
  });
});
