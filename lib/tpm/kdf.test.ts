import { describe, expect, it } from "vitest";
import { kdfa, kdfe } from "./kdf";

const hex = (value: string) => Buffer.from(value, "hex");

describe("kdfa", () => {
  // The TPM reference implementation's own KDFa self-test (KdfTestData.h,
  // SHA-256 case): a 17-byte label that already ends in NUL, 160 bits out.
  it("matches the TPM reference self-test vector", () => {
    const out = kdfa(
      "sha256",
      hex("271fa08bbdc5060ec3dfa928ff9b73123a12da0c"),
      "KDFSELFTESTLABEL",
      hex("ce244f395dca7391"),
      hex("da504031ddf12e83"),
      160,
    );
    expect(out.toString("hex")).toBe("bb0259e1c8ba607e6a2cd704b69a902e9ade84c4");
  });

  it("runs the counter past one block when more bits are asked for", () => {
    const long = kdfa("sha256", hex("00"), "STORAGE", Buffer.alloc(0), Buffer.alloc(0), 512);
    expect(long).toHaveLength(64);
    // The bit count is hashed too, so a longer output is not an extension of a shorter one.
    expect(long.subarray(0, 32)).not.toEqual(kdfa("sha256", hex("00"), "STORAGE", Buffer.alloc(0), Buffer.alloc(0), 256));
  });

  it("refuses a bit count that is not whole bytes", () => {
    expect(() => kdfa("sha256", hex("00"), "X", Buffer.alloc(0), Buffer.alloc(0), 7)).toThrow(/whole number of bytes/);
  });
});

describe("kdfe", () => {
  // chrisfenner/tpm-test-vectors vectors/kdfe.json, "35_SHA256_336" (checked there against go-tpm and a TPM simulator).
  it("matches a published KDFe vector", () => {
    const out = kdfe(
      "sha256",
      hex("8995a6318a0217c7c7bf543f50da29016c4ff2a1ea5daf54ebcb00"),
      "INTEGRITY",
      hex("8852f14d8e9b68"),
      hex("74ff"),
      336,
    );
    expect(out.toString("hex")).toBe("92343ef558feb95fd14838f9ca39c8618598a7eeb31af7fc276030b8c3ff326d4870f190e54abbec9da4");
  });
});
