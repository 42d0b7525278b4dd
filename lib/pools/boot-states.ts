import { z } from "zod";

// SPEC I2: a pool's known boot states, each a name and the SHA-256 PCR values
// a machine that booted it reports. One schema and one matching rule, shared
// by pools/update, the join's quote, nodes/attest and the console.

export const MAX_BOOT_STATES = 32;
const PCR_INDEX = /^(0|[1-9][0-9]?)$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

const pcrsField = z
  .record(z.string(), z.string())
  .superRefine((pcrs, ctx) => {
    const entries = Object.entries(pcrs);
    if (entries.length === 0) ctx.addIssue({ code: "custom", message: "must name at least one PCR" });
    for (const [index, value] of entries) {
      if (!PCR_INDEX.test(index) || Number(index) > 23)
        ctx.addIssue({ code: "custom", path: [index], message: `"${index}" is not a PCR index (0 to 23)` });
      else if (!SHA256_HEX.test(value))
        ctx.addIssue({ code: "custom", path: [index], message: "must be a SHA-256 value in lowercase hex (64 digits)" });
    }
  })
  .meta({ description: 'PCR index → SHA-256 value in lowercase hex, e.g. { "0": "3d45…" }' });

export const bootStateSchema = z.object({
  name: z.string().trim().min(1, "must not be empty").max(64, "must be at most 64 characters"),
  pcrs: pcrsField,
});
export type BootState = z.infer<typeof bootStateSchema>;

export const bootStatesField = z
  .array(bootStateSchema)
  .max(MAX_BOOT_STATES, `must hold at most ${MAX_BOOT_STATES} boot states`)
  .superRefine((states, ctx) => {
    const seen = new Set<string>();
    states.forEach((state, i) => {
      const key = state.name.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: "custom", path: [i, "name"], message: `"${state.name}" is named twice` });
      seen.add(key);
    });
  });

/** The PCR indices a quote must cover: every index any state names, ascending. */
export function bootStatePcrSelection(states: readonly BootState[]): number[] {
  const indices = new Set(states.flatMap((state) => Object.keys(state.pcrs).map(Number)));
  return [...indices].sort((a, b) => a - b);
}

/**
 * The first state (in the pool's order) all of whose PCRs the machine
 * reported with the same values; null when none matches. A state says nothing
 * about PCRs it does not name.
 */
export function matchBootState(states: readonly BootState[], measured: Readonly<Record<string, string>>): string | null {
  const found = states.find((state) => Object.entries(state.pcrs).every(([index, value]) => measured[index]?.toLowerCase() === value));
  return found?.name ?? null;
}

/** Stored JSON (pools.boot_states) read back; a row that fails the schema holds no states. */
export function readStoredBootStates(json: unknown): BootState[] {
  const parsed = bootStatesField.safeParse(json);
  return parsed.success ? parsed.data : [];
}
