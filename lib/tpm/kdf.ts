import { createHash, createHmac } from "node:crypto";

// The TPM's key derivation functions (TPM 2.0 Part 1 §11.4.10). Both run a
// 32-bit big-endian counter from 1 and concatenate hash outputs until `bits`
// are produced. A label is used as a C string: its bytes, then one NUL.

type Hash = "sha256" | "sha384";

function u32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}

function labelBytes(label: string): Buffer {
  return Buffer.concat([Buffer.from(label, "ascii"), Buffer.alloc(1)]);
}

function derive(bits: number, block: (counter: Buffer) => Buffer): Buffer {
  if (bits <= 0 || bits % 8 !== 0) throw new Error(`KDF output must be a positive whole number of bytes, not ${bits} bits`);
  const bytes = bits / 8;
  const blocks: Buffer[] = [];
  let produced = 0;
  for (let counter = 1; produced < bytes; counter += 1) {
    const next = block(u32(counter));
    blocks.push(next);
    produced += next.length;
  }
  return Buffer.concat(blocks).subarray(0, bytes);
}

/**
 * KDFa (SP 800-108 counter mode with HMAC): HMAC_key(counter ‖ label ‖ 0 ‖
 * contextU ‖ contextV ‖ bits), bits as a 32-bit big-endian integer.
 */
export function kdfa(hash: Hash, key: Buffer, label: string, contextU: Buffer, contextV: Buffer, bits: number): Buffer {
  const tail = Buffer.concat([labelBytes(label), contextU, contextV, u32(bits)]);
  return derive(bits, (counter) => createHmac(hash, key).update(counter).update(tail).digest());
}

/**
 * KDFe (SP 800-56A concatenation KDF): H(counter ‖ Z ‖ label ‖ 0 ‖
 * partyUInfo ‖ partyVInfo). Unlike KDFa it takes no key and hashes no length.
 */
export function kdfe(hash: Hash, z: Buffer, label: string, partyUInfo: Buffer, partyVInfo: Buffer, bits: number): Buffer {
  const tail = Buffer.concat([z, labelBytes(label), partyUInfo, partyVInfo]);
  return derive(bits, (counter) => createHash(hash).update(counter).update(tail).digest());
}
