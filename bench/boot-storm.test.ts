import { describe, expect, it } from "vitest";
import { gatingVerdicts, stormVerdicts, type RoundFigures, type StormResult } from "./boot-storm";

// Which storm verdicts fail a run (issue 33): outcomes always, speed only at full size.

const round = (p99Ms: number, statuses: Record<string, number>): RoundFigures => ({
  requests: 48,
  seconds: 1,
  joinsPerSecond: 48,
  certificatesPerSecond: 40,
  statuses,
  p50Ms: 100,
  p99Ms,
  maxMs: p99Ms,
});

/** A storm whose outcomes all held, with the given p99 and size. */
const storm = (p99Ms: number, smoke: boolean): StormResult => ({
  known: 40,
  unknown: 8,
  concurrency: 16,
  smoke,
  first: round(p99Ms, { "200": 40, "202": 8 }),
  retry: round(p99Ms, { "409": 40, "202": 8 }),
  nodes: 40,
  machinesAdmittedTwice: 0,
  pendingRequests: 8,
  tokenUses: 48,
});

describe("the boot storm's verdicts", () => {
  it("a slow smoke storm reports p99 as a speed figure but is not failed by it", () => {
    const slow = storm(1384, true);
    expect(stormVerdicts(slow).find((verdict) => verdict.kind === "speed")).toMatchObject({ held: false, seen: "1384 ms" });
    expect(gatingVerdicts(slow).map((verdict) => verdict.kind)).not.toContain("speed");
    expect(gatingVerdicts(slow).every((verdict) => verdict.held)).toBe(true);
  });

  it("at full size the same p99 fails", () => {
    expect(
      gatingVerdicts(storm(1384, false))
        .filter((verdict) => !verdict.held)
        .map((verdict) => verdict.target),
    ).toEqual(["p99 ≤ 1 s (each round)"]);
  });

  it("an outcome gates the smoke too: a machine admitted twice fails it", () => {
    const twice = { ...storm(100, true), machinesAdmittedTwice: 1 };
    expect(
      gatingVerdicts(twice)
        .filter((verdict) => !verdict.held)
        .map((verdict) => verdict.target),
    ).toEqual(["each known machine admitted exactly once"]);
  });
});
