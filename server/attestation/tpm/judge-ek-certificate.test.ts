import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Db } from "../../db/client";
import { readEkCertificateKey } from "@/lib/tpm/ek-certificate-key";
import { judgeEkCertificate } from "./judge-ek-certificate";

// The tpm attestor's own check (SPEC I1): a certificate is trusted only for
// the EK it certifies, even where the join's 400 on ekPublicKey was skipped.

const fixture = (name: string) => readFileSync(`fixtures/tpm-ek-certificates/${name}`, "utf8");
const CERTIFICATE = fixture("ek-rsa.pem");
const CHAIN = fixture("localca-issuer.pem");
const CERTIFIED_EK = readEkCertificateKey(CERTIFICATE).sha256;
const OTHER_EK = readEkCertificateKey(fixture("ek-ecc-p384.pem")).sha256;
// the fixtures were made on 2026-12-06
const AT = new Date("2027-01-01T00:00:00Z");

/** A database whose trust store holds these roots (all the judge reads). */
const storeOf = (...roots: string[]) => ({ tpmTrustedRoot: { findMany: async () => roots.map((pem) => ({ pem })) } }) as unknown as Db;

describe("judgeEkCertificate", () => {
  it("trusts a certificate of the proven EK that chains to a trusted root", async () => {
    const judged = await judgeEkCertificate(storeOf(fixture("localca-root.pem")), "t", CERTIFIED_EK, {
      certificate: CERTIFICATE,
      chain: CHAIN,
      at: AT,
    });
    expect(judged).toEqual({
      trusted: true,
      facts: { issuer: "CN=swtpm-localca", serial: expect.any(String), failure: null, detail: null },
    });
  });

  it("never trusts it for another EK, though it chains", async () => {
    const judged = await judgeEkCertificate(storeOf(fixture("localca-root.pem")), "t", OTHER_EK, {
      certificate: CERTIFICATE,
      chain: CHAIN,
      at: AT,
    });
    expect(judged).toMatchObject({ trusted: false, facts: { failure: "invalid-chain", detail: expect.stringMatching(/another key/) } });
  });

  it("names why with an empty store or a root of the same name but another key", async () => {
    for (const store of [storeOf(), storeOf(fixture("other-root.pem"), fixture("impostor-root.pem"))]) {
      const judged = await judgeEkCertificate(store, "t", CERTIFIED_EK, { certificate: CERTIFICATE, chain: CHAIN, at: AT });
      expect(judged.trusted).toBe(false);
      expect(judged.facts).toMatchObject({ issuer: "CN=swtpm-localca", failure: expect.stringMatching(/unknown-issuer|bad-signature/) });
    }
  });
});
