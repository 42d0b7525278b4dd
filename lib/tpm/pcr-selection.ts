import { TPM_ALG, hex16 } from "./tpm-constants";
import { TpmFormatError } from "./tpm-format-error";
import type { TpmReader } from "./tpm-reader";

// TPML_PCR_SELECTION (Part 2 §10.9.7): for each bank, a hash algorithm and a
// bitmap of PCR indices (bit i of byte i/8 is PCR i). A quote attests one, so
// the server checks it is exactly the selection it asked for.

export interface PcrBankSelection {
  hashAlg: number;
  /** PCR indices, ascending: the order the TPM concatenates their values in */
  indices: number[];
}

/** More banks or bitmap bytes than any TPM has (PCR_SELECT_MAX is 3 for 24 PCRs). */
const MAX_BANKS = 16;
const MAX_SELECT_BYTES = 4;

export function readPcrSelection(reader: TpmReader, what: string): PcrBankSelection[] {
  const count = reader.u32("PCR selection count");
  if (count > MAX_BANKS) throw new TpmFormatError(`${what}: the PCR selection claims ${count} banks`);
  const banks: PcrBankSelection[] = [];
  for (let bank = 0; bank < count; bank += 1) {
    const hashAlg = reader.u16("PCR selection hash algorithm");
    const size = reader.u8("PCR selection size");
    if (size > MAX_SELECT_BYTES) throw new TpmFormatError(`${what}: a PCR selection bitmap of ${size} bytes is longer than any TPM's`);
    const bitmap = reader.take(size, "PCR selection bitmap");
    const indices: number[] = [];
    bitmap.forEach((byte, at) => {
      for (let bit = 0; bit < 8; bit += 1) if (byte & (1 << bit)) indices.push(at * 8 + bit);
    });
    banks.push({ hashAlg, indices });
  }
  return banks;
}

/** The marshalled TPML_PCR_SELECTION of one bank (3 bitmap bytes, as tpm2_quote sends). */
export function encodePcrSelection({ hashAlg, indices }: PcrBankSelection): Buffer {
  const bitmap = Buffer.alloc(3);
  for (const index of indices) {
    if (!Number.isInteger(index) || index < 0 || index >= 24) throw new TpmFormatError(`PCR ${index} is not one of a TPM's 24 PCRs`);
    bitmap[index >> 3]! |= 1 << (index & 7);
  }
  const head = Buffer.alloc(7);
  head.writeUInt32BE(1, 0);
  head.writeUInt16BE(hashAlg, 4);
  head.writeUInt8(bitmap.length, 6);
  return Buffer.concat([head, bitmap]);
}

/** "sha256:0,1,2" for messages, as tpm2-tools writes a selection. */
export function describePcrSelection(banks: PcrBankSelection[]): string {
  const names = new Map<number, string>([
    [TPM_ALG.SHA1, "sha1"],
    [TPM_ALG.SHA256, "sha256"],
    [TPM_ALG.SHA384, "sha384"],
    [TPM_ALG.SHA512, "sha512"],
  ]);
  const shown = banks.filter((bank) => bank.indices.length > 0);
  if (shown.length === 0) return "no PCRs";
  return shown.map((bank) => `${names.get(bank.hashAlg) ?? hex16(bank.hashAlg)}:${bank.indices.join(",")}`).join("+");
}
