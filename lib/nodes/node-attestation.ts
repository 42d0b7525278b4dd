import { z } from "zod";
import type { BootState } from "@/lib/pools/boot-states";
import { timestamp } from "@/lib/wire/fields";
import { ATTESTATION_STATES } from "@/lib/validations/nodes";

// SPEC I3: what a node's attestation reads as. The stored state is its last
// verified quote (trusted or untrusted); stale is read, never stored: a node
// of a pool that requires a known boot whose last quote is older than the
// maximum age (or that never quoted) is stale whatever that quote said, so a
// node that stops attesting cannot keep its last "trusted".

export { ATTESTATION_STATES, type AttestationState } from "@/lib/validations/nodes";

/** BC_ATTESTATION_MAX_AGE_SECONDS's default: a day. */
export const DEFAULT_ATTESTATION_MAX_AGE_SECONDS = 86_400;

const pcrValues = z.record(z.string(), z.string()).meta({ description: "PCR index → SHA-256 value in hex, as the quote attested" });

export const nodeAttestationJson = z
  .strictObject({
    state: z.enum(ATTESTATION_STATES),
    at: timestamp.nullable().meta({ description: "when the last quote was verified; null for a node that never attested" }),
    bootState: z.string().nullable().meta({ description: "the pool's boot state the last quote matched; null when none" }),
    pcrs: pcrValues.nullable(),
    unmatchedPcrs: z.array(z.number().int()).meta({ description: "the indices whose value no known boot state of the pool holds" }),
  })
  .nullable()
  .meta({ description: "the node's last attestation (nodes/attest); null when it never attested and need not" });
export type NodeAttestationJson = z.infer<typeof nodeAttestationJson>;

/** The stored columns (nodes.attestation_*). */
export interface AttestationRow {
  attestationState: "trusted" | "untrusted" | null;
  attestedAt: Date | null;
  attestationBootState: string | null;
  attestationPcrs: unknown;
  attestationUnmatched: number[];
}

/** The clock a read is made at: `now` is injected so tests move time instead of sleeping. */
export interface AttestationClock {
  now: Date;
  maxAgeSeconds: number;
}

/** A read of the nodes of one pool: the clock and the one pool fact stale depends on. */
export interface AttestationReading extends AttestationClock {
  requireKnownBoot: boolean;
}

/** The moment before which a last attestation is stale. */
export const staleBefore = ({ now, maxAgeSeconds }: AttestationClock) => new Date(now.getTime() - maxAgeSeconds * 1000);

export function readNodeAttestation(row: AttestationRow, reading: AttestationReading): NodeAttestationJson {
  const at = row.attestedAt;
  const stale = reading.requireKnownBoot && (!at || at.getTime() <= staleBefore(reading).getTime());
  if (!row.attestationState && !stale) return null;
  return {
    state: stale ? "stale" : row.attestationState!,
    at: at ? at.toISOString() : null,
    bootState: row.attestationBootState,
    pcrs: (row.attestationPcrs as Record<string, string> | null) ?? null,
    unmatchedPcrs: row.attestationUnmatched,
  };
}

/**
 * The PCRs whose measured value no known state holds at that index: what an
 * operator looks at first when a node reads untrusted (a state names a PCR
 * another leaves open, so an index no state names is never "unmatched").
 */
export function unmatchedPcrs(states: readonly BootState[], measured: Readonly<Record<string, string>>): number[] {
  return Object.entries(measured)
    .filter(([index, value]) => {
      const known = states.map((state) => state.pcrs[index]).filter((v): v is string => v !== undefined);
      return known.length > 0 && !known.includes(value.toLowerCase());
    })
    .map(([index]) => Number(index))
    .sort((a, b) => a - b);
}
