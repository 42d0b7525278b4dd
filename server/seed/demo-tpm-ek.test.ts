import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { endorsementKeySha256 } from "../pki/machine-keys";
import { DEMO_TPM_ALLOWED_KEYS } from "./demo-data";
import { DEMO_ALLOWED_EK_PEM } from "./demo-tpm-ek";

describe("the demo's allowed endorsement key", () => {
  it("is fixtures/tpm-ek-allowed.pem, and hashes to the allow-listed SHA-256", () => {
    const fixture = readFileSync(new URL("../../fixtures/tpm-ek-allowed.pem", import.meta.url), "utf8");
    expect(DEMO_ALLOWED_EK_PEM).toBe(fixture);
    expect(endorsementKeySha256(DEMO_ALLOWED_EK_PEM)).toBe("15426fb055f5461484bf419f7e67ba400ddfc2b54d90981cb9f65f6ffc228af1");
    expect(DEMO_TPM_ALLOWED_KEYS.map((key) => key.ekSha256)).toContain(endorsementKeySha256(DEMO_ALLOWED_EK_PEM));
  });
});
