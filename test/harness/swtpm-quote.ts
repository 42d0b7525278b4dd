import { readFile } from "node:fs/promises";
import type { Swtpm, SwtpmAk } from "./swtpm";

// TPM2_Quote on a swtpm as a machine runs it (SPEC I2, I3): tpm2_quote with
// the nonce as qualifying data over SHA-256 PCRs, the values it printed as
// `pcrs`, the message and signature files read back.

export interface SwtpmQuote {
  attest: Buffer;
  signature: Buffer;
  pcrs: Record<string, string>;
}

let quotes = 0;

export async function swtpmQuote(tpm: Swtpm, ak: SwtpmAk, nonce: Buffer, selection: readonly number[]): Promise<SwtpmQuote> {
  const n = (quotes += 1);
  const stdout = await tpm.tool("tpm2_quote", [
    "-c",
    ak.handle,
    "-q",
    nonce.toString("hex"),
    "-l",
    `sha256:${selection.join(",")}`,
    "-m",
    `attest-${n}.msg`,
    "-s",
    `attest-${n}.sig`,
    "-o",
    `attest-${n}.pcrs`,
    "-g",
    "sha256",
  ]);
  await tpm.tool("tpm2_flushcontext", ["-t"]);
  const pcrs = Object.fromEntries(
    [...stdout.matchAll(/^\s+(\d+)\s*:\s*0x([0-9A-Fa-f]{64})$/gm)].map(([, index, value]) => [index!, value!.toLowerCase()]),
  );
  return { attest: await readFile(tpm.path(`attest-${n}.msg`)), signature: await readFile(tpm.path(`attest-${n}.sig`)), pcrs };
}
