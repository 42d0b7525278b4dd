import { TpmFormatError } from "./tpm-format-error";

/**
 * Reads TPM marshalled data (big-endian integers, TPM2B = 2-byte size then
 * bytes). Every read names the field it is after, so a short or oversized
 * structure fails with a message that says where.
 */
export class TpmReader {
  private offset = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly what: string,
  ) {}

  get position(): number {
    return this.offset;
  }

  u8(field: string): number {
    return this.take(1, field)[0]!;
  }

  u16(field: string): number {
    const chunk = this.take(2, field);
    return (chunk[0]! << 8) | chunk[1]!;
  }

  u32(field: string): number {
    const chunk = this.take(4, field);
    // >>> 0 keeps bit 31 from turning the value negative.
    return ((chunk[0]! << 24) | (chunk[1]! << 16) | (chunk[2]! << 8) | chunk[3]!) >>> 0;
  }

  u64(field: string): bigint {
    return this.take(8, field).readBigUInt64BE(0);
  }

  /** A TPM2B: its size, then that many bytes; `maxSize` is the largest the structure allows. */
  sized(field: string, maxSize: number): Buffer {
    const size = this.u16(`${field} size`);
    if (size > maxSize) throw new TpmFormatError(`${this.what}: ${field} is ${size} bytes, more than the ${maxSize} allowed`);
    return this.take(size, field);
  }

  take(length: number, field: string): Buffer {
    if (this.offset + length > this.bytes.length) {
      throw new TpmFormatError(`${this.what} is truncated: it ends inside ${field}`);
    }
    const chunk = Buffer.from(this.bytes.subarray(this.offset, this.offset + length));
    this.offset += length;
    return chunk;
  }

  slice(start: number, end: number): Buffer {
    return Buffer.from(this.bytes.subarray(start, end));
  }

  expectEnd(): void {
    const left = this.bytes.length - this.offset;
    if (left > 0) throw new TpmFormatError(`${this.what} has ${left} unexpected trailing byte${left === 1 ? "" : "s"}`);
  }
}
