import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { endorsementKeySha256 } from "../pki/machine-keys";
import { DEMO_TPM_ALLOWED_KEYS } from "./demo-data";
import { DEMO_TPM_EK_PRIVATE_KEY_PEM } from "./demo-tpm-ek";
import { SoftwareTpm } from "@/lib/tpm/software-tpm";

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), "utf8");

describe("the demo's allowed endorsement key (SPEC Part C)", () => {
  it("fixtures/tpm-ek-allowed.pem hashes to the allow-listed SHA-256", () => {
    expect(endorsementKeySha256(fixture("tpm-ek-allowed.pem"))).toBe("15426fb055f5461484bf419f7e67ba400ddfc2b54d90981cb9f65f6ffc228af1");
    expect(DEMO_TPM_ALLOWED_KEYS.map((key) => key.ekSha256)).toContain(endorsementKeySha256(fixture("tpm-ek-allowed.pem")));
  });
});

describe("the demo software TPM's endorsement key (SPEC F5)", () => {
  it("is fixtures/tpm-ek-demo(.key).pem, a matching pair, allow-listed by its SHA-256", () => {
    expect(DEMO_TPM_EK_PRIVATE_KEY_PEM).toBe(fixture("tpm-ek-demo.key.pem"));
    const tpm = new SoftwareTpm({ ekPrivateKeyPem: DEMO_TPM_EK_PRIVATE_KEY_PEM });
    expect(endorsementKeySha256(tpm.ekPublicKeyPem)).toBe("23ecae7f12443c728490c84f0a0c06ce53314bb6fe6053c0a1b819cf4a7fd68e");
    expect(endorsementKeySha256(fixture("tpm-ek-demo.pem"))).toBe(endorsementKeySha256(tpm.ekPublicKeyPem));
    expect(DEMO_TPM_ALLOWED_KEYS.map((key) => key.ekSha256)).toContain("23ecae7f12443c728490c84f0a0c06ce53314bb6fe6053c0a1b819cf4a7fd68e");
  });
});
