import { TpmReader } from "./tpm-reader";

/** A TPM2B: the bytes behind their 2-byte big-endian size. */
export function tpm2b(bytes: Uint8Array): Buffer {
  const size = Buffer.alloc(2);
  size.writeUInt16BE(bytes.length);
  return Buffer.concat([size, bytes]);
}

/** The contents of a TPM2B that must make up the whole of `bytes` (named `what` in errors). */
export function unwrapTpm2b(bytes: Uint8Array, what: string, maxSize: number): Buffer {
  const reader = new TpmReader(bytes, what);
  const contents = reader.sized("its contents", maxSize);
  reader.expectEnd();
  return contents;
}
