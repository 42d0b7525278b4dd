import { describe, expect, it } from "vitest";
import { readNodeAttestation, unmatchedPcrs, type AttestationRow } from "./node-attestation";

// SPEC I3's stale, read at an injected clock: no test sleeps.
const A = "aa".repeat(32);
const B = "bb".repeat(32);
const C = "cc".repeat(32);
const at = new Date("2026-12-06T12:00:00.000Z");
const row = (overrides: Partial<AttestationRow> = {}): AttestationRow => ({
  attestationState: "trusted",
  attestedAt: at,
  attestationBootState: "golden",
  attestationPcrs: { "0": A },
  attestationUnmatched: [],
  ...overrides,
});
const reading = (secondsLater: number, requireKnownBoot = true) => ({
  now: new Date(at.getTime() + secondsLater * 1000),
  maxAgeSeconds: 86_400,
  requireKnownBoot,
});

describe("readNodeAttestation", () => {
  it("is the stored state until the maximum age has passed, then stale (keeping when and what it matched)", () => {
    expect(readNodeAttestation(row(), reading(86_399))?.state).toBe("trusted");
    expect(readNodeAttestation(row(), reading(86_400))).toEqual({
      state: "stale",
      at: at.toISOString(),
      bootState: "golden",
      pcrs: { "0": A },
      unmatchedPcrs: [],
    });
    expect(readNodeAttestation(row({ attestationState: "untrusted" }), reading(90_000))?.state).toBe("stale");
  });

  it("never reads stale in a pool that does not require a known boot", () => {
    expect(readNodeAttestation(row(), reading(10 * 86_400, false))?.state).toBe("trusted");
  });

  it("a node that never attested: stale where a known boot is required, else null", () => {
    const never = row({ attestationState: null, attestedAt: null, attestationBootState: null, attestationPcrs: null });
    expect(readNodeAttestation(never, reading(0))).toEqual({ state: "stale", at: null, bootState: null, pcrs: null, unmatchedPcrs: [] });
    expect(readNodeAttestation(never, reading(0, false))).toBeNull();
  });
});

describe("unmatchedPcrs", () => {
  const states = [
    { name: "one", pcrs: { "0": A, "7": B } },
    { name: "two", pcrs: { "0": A, "7": C } },
  ];
  it("names the indices whose value no state holds, ascending", () => {
    expect(unmatchedPcrs(states, { "7": A, "0": B })).toEqual([0, 7]);
    expect(unmatchedPcrs(states, { "0": A, "7": "DD".repeat(32) })).toEqual([7]);
  });
  it("a value some state holds is not unmatched, in any case; an index no state names never is", () => {
    expect(unmatchedPcrs(states, { "0": A.toUpperCase(), "7": C, "4": B })).toEqual([]);
  });
});
