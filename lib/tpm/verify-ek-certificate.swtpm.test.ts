import { createPublicKey } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EK_CERTIFICATE_NV_INDEX, createLocalCa, type LocalCa } from "@/test/harness/swtpm-ek-certificates";
import { startSwtpm, type Swtpm } from "@/test/harness/swtpm";
import { EkCertificateInputError, verifyEkCertificate } from "./verify-ek-certificate";
import { assertEkCertificateIsFor } from "./ek-certificate-key";

// EK certificates a TPM was manufactured with (swtpm_setup --create-ek-cert,
// signed by a swtpm_localca of this test's own), read from its NV as a
// machine's join would read them, and checked against that CA and others.
// Without swtpm these fail, never skip (make-credential.swtpm.test.ts says why).

const CREATEEK_ALG = { rsa: "rsa", ecc: "ecc384" } as const;
let ca: LocalCa;
let otherCa: LocalCa;
let tpm: Swtpm;
const certificate = { rsa: "", ecc: "" };
const ek = { rsa: "", ecc: "" };
let issuer: string;
let root: string;

beforeAll(async () => {
  ca = await createLocalCa();
  tpm = await startSwtpm({ manufacture: (stateDir) => ca.manufacture(stateDir) });
  for (const type of ["rsa", "ecc"] as const) {
    await tpm.tool("tpm2_nvread", [EK_CERTIFICATE_NV_INDEX[type], "-o", `ek-cert-${type}.der`]);
    certificate[type] = pem(await readFile(tpm.path(`ek-cert-${type}.der`)));
    // The EK the TCG template makes again, as a machine's join would send it.
    await tpm.tool("tpm2_createek", ["-c", `ek-${type}.ctx`, "-G", CREATEEK_ALG[type], "-u", `ek-${type}.pem`, "-f", "pem"]);
    await tpm.tool("tpm2_flushcontext", ["-t"]);
    ek[type] = await readFile(tpm.path(`ek-${type}.pem`), "utf8");
  }
  [issuer, root] = [await ca.issuerPem(), await ca.rootPem()];
  // Another vendor: a local CA of the same names but its own keys, made by manufacturing a TPM nobody starts.
  otherCa = await createLocalCa();
  const scratch = await mkdtemp(join(tmpdir(), "swtpm-other-"));
  await otherCa.manufacture(scratch);
  await rm(scratch, { recursive: true, force: true });
});

afterAll(async () => {
  await tpm?.stop();
  await ca?.remove();
  await otherCa?.remove();
});

function pem(der: Buffer): string {
  return `-----BEGIN CERTIFICATE-----\n${der.toString("base64").replace(/.{64}/g, "$&\n").replace(/\n$/, "")}\n-----END CERTIFICATE-----\n`;
}

describe.each(["rsa", "ecc"] as const)("the swtpm's %s EK certificate", (type) => {
  const at = () => new Date();

  it("chains through the local CA to its root", async () => {
    const verdict = await verifyEkCertificate({ certificate: certificate[type], chain: issuer, trustedRoots: [root], at: at() });
    expect(verdict).toMatchObject({
      ok: true,
      issuer: "CN=swtpm-localca",
      chain: [{ subject: "CN=unknown" }, { subject: "CN=swtpm-localca" }, { subject: "CN=swtpm-localca-rootca" }],
    });
  });

  it("certifies exactly the EK tpm2_createek makes on that TPM", () => {
    expect(() => assertEkCertificateIsFor(certificate[type], createPublicKey(ek[type]))).not.toThrow();
    const other = type === "rsa" ? "ecc" : "rsa";
    expect(() => assertEkCertificateIsFor(certificate[type], createPublicKey(ek[other]))).toThrow(EkCertificateInputError);
  });

  it("is unknown-issuer under another local CA's root, though the names are the same", async () => {
    const verdict = await verifyEkCertificate({
      certificate: certificate[type],
      chain: issuer,
      trustedRoots: [await otherCa.rootPem()],
      at: at(),
    });
    expect(verdict).toMatchObject({ ok: false, reason: "unknown-issuer" });
  });

  it("is unknown-issuer with another CA's issuer of the same name as its chain (its key identifier differs)", async () => {
    const verdict = await verifyEkCertificate({
      certificate: certificate[type],
      chain: await otherCa.issuerPem(),
      trustedRoots: [root],
      at: at(),
    });
    expect(verdict).toMatchObject({
      ok: false,
      reason: "unknown-issuer",
      detail: 'no certificate named "CN=swtpm-localca" is in the trust store or the chain',
    });
  });

  it("is bad-signature when a bit of its signature is flipped", async () => {
    const der = Buffer.from(certificate[type].replace(/-----[^-]+-----/g, "").replace(/\s+/g, ""), "base64");
    der[der.length - 3]! ^= 0x10;
    const verdict = await verifyEkCertificate({ certificate: pem(der), chain: issuer, trustedRoots: [root], at: at() });
    expect(verdict).toMatchObject({ ok: false, reason: "bad-signature", issuer: "CN=swtpm-localca" });
  });

  it("is expired when checked after its end (year 10000: swtpm_localca's certificates run to 9999)", async () => {
    const verdict = await verifyEkCertificate({
      certificate: certificate[type],
      chain: issuer,
      trustedRoots: [root],
      at: new Date("+010000-01-01T00:00:00Z"),
    });
    expect(verdict).toMatchObject({ ok: false, reason: "expired" });
  });
});
