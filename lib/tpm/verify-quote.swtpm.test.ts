import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSwtpm, type Swtpm, type SwtpmAk } from "@/test/harness/swtpm";
import { SoftwareTpm } from "./software-tpm";
import { parseTpm2bPublic } from "./tpm2b-public";
import { TpmFormatError } from "./tpm-format-error";
import { QuoteRejectedError, verifyQuote, type VerifyQuoteInput } from "./verify-quote";

// Quotes made by a real TPM 2.0 (swtpm) with tpm2_quote, as a machine makes
// them for SPEC I2, verified by our code: with an ECC and an RSA AK, and each
// way a quote can be wrong. Without swtpm these fail, never skip.

const SELECTION = [0, 1, 2, 3, 4, 5, 6, 7];
let tpm: Swtpm;
const aks: Record<"ecc" | "rsa", SwtpmAk> = {} as never;
let quotes = 0;

beforeAll(async () => {
  tpm = await startSwtpm();
  await tpm.createEk("rsa");
  aks.ecc = await tpm.createAk("rsa", "ecc");
  aks.rsa = await tpm.createAk("rsa", "rsa");
  // A measured boot that wrote something: PCR 3 no longer all zeros.
  await tpm.tool("tpm2_pcrextend", [`3:sha256=${"ab".repeat(32)}`]);
});

afterAll(async () => {
  await tpm?.stop();
});

interface Quote {
  attest: Buffer;
  signature: Buffer;
  pcrs: Record<string, string>;
}

/** tpm2_quote as a machine runs it: the nonce as qualifying data, the values it printed as `pcrs`. */
async function quote(ak: SwtpmAk, nonce: Buffer, selection = SELECTION): Promise<Quote> {
  const n = (quotes += 1);
  const stdout = await tpm.tool("tpm2_quote", [
    "-c",
    ak.handle,
    "-q",
    nonce.toString("hex"),
    "-l",
    `sha256:${selection.join(",")}`,
    "-m",
    `quote-${n}.msg`,
    "-s",
    `quote-${n}.sig`,
    "-o",
    `quote-${n}.pcrs`,
    "-g",
    "sha256",
  ]);
  await tpm.tool("tpm2_flushcontext", ["-t"]);
  const pcrs = Object.fromEntries(
    [...stdout.matchAll(/^\s+(\d+)\s*:\s*0x([0-9A-Fa-f]{64})$/gm)].map(([, index, value]) => [index!, value!]),
  );
  return { attest: await readFile(tpm.path(`quote-${n}.msg`)), signature: await readFile(tpm.path(`quote-${n}.sig`)), pcrs };
}

function check(ak: SwtpmAk, nonce: Buffer, made: Quote, change: Partial<VerifyQuoteInput> = {}) {
  return verifyQuote({ ak: parseTpm2bPublic(ak.akPublic), nonce, pcrSelection: SELECTION, ...made, ...change });
}

function reasonOf(attempt: () => unknown): string {
  try {
    attempt();
  } catch (error) {
    if (error instanceof QuoteRejectedError) return error.reason;
    throw error;
  }
  return "accepted";
}

describe.each(["ecc", "rsa"] as const)("a tpm2_quote by the %s AK", (type) => {
  it("is verified, with the extended PCR among the values", async () => {
    const nonce = randomBytes(32);
    const made = await quote(aks[type], nonce);
    const verified = check(aks[type], nonce, made);
    expect(Object.keys(verified.pcrs)).toEqual(SELECTION.map(String));
    expect(verified.pcrs["3"]).not.toBe("00".repeat(32));
    expect(verified.pcrs["0"]).toBe("00".repeat(32));
  });

  it("is wrong-nonce for another challenge's nonce", async () => {
    const made = await quote(aks[type], randomBytes(32));
    expect(reasonOf(() => check(aks[type], randomBytes(32), made))).toBe("wrong-nonce");
  });

  it("is pcr-digest-mismatch when a value is altered after quoting", async () => {
    const nonce = randomBytes(32);
    const made = await quote(aks[type], nonce);
    expect(reasonOf(() => check(aks[type], nonce, made, { pcrs: { ...made.pcrs, "3": "00".repeat(32) } }))).toBe("pcr-digest-mismatch");
  });

  it("is wrong-pcr-selection when it covers other PCRs than the challenge asked for", async () => {
    const nonce = randomBytes(32);
    const made = await quote(aks[type], nonce, [0, 1, 2]);
    const pcrs = { ...made.pcrs, ...Object.fromEntries([3, 4, 5, 6, 7].map((index) => [String(index), "00".repeat(32)])) };
    expect(reasonOf(() => check(aks[type], nonce, made, { pcrs }))).toBe("wrong-pcr-selection");
  });

  it("is bad-signature when checked against the other AK", async () => {
    const nonce = randomBytes(32);
    const other = await tpm.createAk("rsa", type);
    const made = await quote(other, nonce);
    expect(check(other, nonce, made).pcrs).toEqual(expect.any(Object));
    expect(reasonOf(() => check(aks[type], nonce, made))).toBe("bad-signature");
  });

  it("is a TpmFormatError when truncated or garbage, never another kind of error", async () => {
    const nonce = randomBytes(32);
    const made = await quote(aks[type], nonce);
    expect(() => check(aks[type], nonce, made, { attest: made.attest.subarray(0, made.attest.length - 5) })).toThrow(TpmFormatError);
    expect(() => check(aks[type], nonce, made, { signature: made.signature.subarray(0, 10) })).toThrow(TpmFormatError);
    expect(() => check(aks[type], nonce, made, { signature: randomBytes(40) })).toThrow(TpmFormatError);
    expect(reasonOf(() => check(aks[type], nonce, made, { attest: randomBytes(made.attest.length) }))).toBe("not-tpm-generated");
  });
});

it("sees a PCR extended after one quote in the next, and verifies both", async () => {
  const first = randomBytes(32);
  const before = check(aks.ecc, first, await quote(aks.ecc, first));
  await tpm.tool("tpm2_pcrextend", [`7:sha256=${"cd".repeat(32)}`]);
  const second = randomBytes(32);
  const after = check(aks.ecc, second, await quote(aks.ecc, second));
  expect(after.pcrs["7"]).not.toBe(before.pcrs["7"]);
  expect({ ...after.pcrs, "7": before.pcrs["7"] }).toEqual(before.pcrs);
});

it("makes the software TPM's quotes ones tpm2_checkquote accepts (signature and nonce; and refuses another nonce)", async () => {
  const software = SoftwareTpm.withFreshEk();
  software.extendPcr(3, Buffer.alloc(32, 0xaa));
  const nonce = randomBytes(32);
  const made = software.quote({ nonce, pcrSelection: SELECTION });
  await writeFile(tpm.path("software-ak.pub"), software.akPublic);
  await writeFile(tpm.path("software.msg"), made.attest);
  await writeFile(tpm.path("software.sig"), made.signature);
  const args = ["-u", "software-ak.pub", "-m", "software.msg", "-s", "software.sig", "-g", "sha256", "-q"];
  await expect(tpm.tool("tpm2_checkquote", [...args, nonce.toString("hex")])).resolves.toBeDefined();
  await expect(tpm.tool("tpm2_checkquote", [...args, randomBytes(32).toString("hex")])).rejects.toThrow(/tpm2_checkquote/);
});
