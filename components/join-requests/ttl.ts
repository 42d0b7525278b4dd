import { TTL_DEFAULT_SECONDS } from "@/lib/validations/join-requests";

// The approve dialog's TTL choices. The value is validated by the server's
// own schema (approveJoinRequestInput.ttlSeconds), not by rules of its own.
export const TTL_PRESETS = [
  { seconds: 15 * 60, label: "15 min" },
  { seconds: TTL_DEFAULT_SECONDS, label: "1 h" },
  { seconds: 4 * 3600, label: "4 h" },
  { seconds: 12 * 3600, label: "12 h" },
  { seconds: 24 * 3600, label: "24 h" },
] as const;

export const TTL_UNITS = { minutes: 60, hours: 3600, seconds: 1 } as const;
export type TtlUnit = keyof typeof TTL_UNITS;

export type TtlChoice = { kind: "preset"; seconds: number } | { kind: "custom"; amount: string; unit: TtlUnit };

export const DEFAULT_TTL_CHOICE: TtlChoice = { kind: "preset", seconds: TTL_DEFAULT_SECONDS };

/**
 * The chosen TTL in seconds, as the schema will judge it: NaN for an empty or
 * non-numeric amount; a fraction stays a fraction (refused), but float noise
 * such as 1.1 h = 3960.0000000000005 s is rounded away.
 */
export function ttlSecondsOf(choice: TtlChoice): number {
  if (choice.kind === "preset") return choice.seconds;
  const amount = choice.amount.trim() === "" ? Number.NaN : Number(choice.amount);
  return Math.round(amount * TTL_UNITS[choice.unit] * 1000) / 1000;
}
