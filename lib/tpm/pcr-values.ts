import { TpmFormatError } from "./tpm-format-error";

// The PCR values a machine reports beside its quote (`tpm.quote.pcrs`):
// exactly the selected indices, each a SHA-256 value in hex. Anything else is
// a malformed request (400 naming pcrs), decided before any cryptography.

const INDEX = /^(0|[1-9][0-9]?)$/;
const SHA256_HEX = /^[0-9a-fA-F]{64}$/;

export function readPcrValues(pcrs: Readonly<Record<string, string>>, selection: readonly number[]): Map<number, Buffer> {
  if (typeof pcrs !== "object" || pcrs === null || Array.isArray(pcrs))
    throw new TpmFormatError("pcrs must be an object of PCR index → hex value");
  const values = new Map<number, Buffer>();
  for (const [key, value] of Object.entries(pcrs)) {
    if (!INDEX.test(key) || Number(key) > 23) throw new TpmFormatError(`pcrs: "${key}" is not a PCR index (0 to 23)`);
    if (!selection.includes(Number(key)))
      throw new TpmFormatError(`pcrs: PCR ${key} was not asked for (the challenge asked for ${selection.join(",")})`);
    if (typeof value !== "string" || !SHA256_HEX.test(value))
      throw new TpmFormatError(`pcrs: PCR ${key} is not a SHA-256 value in hex (64 hex digits)`);
    values.set(Number(key), Buffer.from(value, "hex"));
  }
  const missing = selection.filter((index) => !values.has(index));
  if (missing.length > 0) throw new TpmFormatError(`pcrs: missing PCR ${missing.join(", ")}`);
  return values;
}
