import "server-only";
import type { Attestor } from "./attestor";

// Identifiers that firmware ships unset: they name no machine, so a join
// carrying one is deferred for a human (SPEC B5). Compared trimmed and
// case-insensitively.
const PLACEHOLDERS = new Set([
  "",
  "03000200-0400-0500-0006-000700080009",
  "to be filled by o.e.m.",
  "default string",
  "system serial number",
  "not specified",
  "0123456789",
  "none",
  "n/a",
]);

/** All zeros or all F, whatever the separators ("00000000-0000-…", "FFFF FFFF"). */
const REPEATED = /^(?:0+|f+)$/;

export function isPlaceholderHardwareId(value: string): boolean {
  const normalized = value.trim().toLowerCase();
  if (PLACEHOLDERS.has(normalized)) return true;
  const digits = normalized.replace(/[\s:-]/g, "");
  return digits.length > 0 && REPEATED.test(digits);
}

export const hardwareAttestor: Attestor = {
  name: "hardware",
  async attest(_db, { machine }) {
    const placeholder = isPlaceholderHardwareId(machine.systemUuid) || isPlaceholderHardwareId(machine.serialNumber);
    return placeholder ? { defer: "placeholder-hardware-id" } : {};
  },
};
