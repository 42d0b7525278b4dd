import { describe, expect, it } from "vitest";
import { afterFailure, DEFAULT_RETRY_POLICY, retryDelayMs } from "./backoff";

describe("retryDelayMs: exponential backoff with equal jitter", () => {
  it("doubles from 10 s, between half and all of each step, capped at an hour", () => {
    const low = (failures: number) => retryDelayMs(failures, DEFAULT_RETRY_POLICY, () => 0);
    const high = (failures: number) => retryDelayMs(failures, DEFAULT_RETRY_POLICY, () => 1);
    expect([1, 2, 3, 4].map(high)).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect([1, 2, 3, 4].map(low)).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(high(12)).toBe(3_600_000);
    expect(low(1_000)).toBe(1_800_000);
  });
  it("spreads retries: different random draws give different delays", () => {
    const delays = new Set(Array.from({ length: 20 }, () => retryDelayMs(3, DEFAULT_RETRY_POLICY)));
    expect(delays.size).toBeGreaterThan(1);
    for (const delay of delays) expect(delay).toBeGreaterThanOrEqual(20_000);
  });
});

describe("afterFailure: retry, or dead after 24 h", () => {
  const createdAt = new Date("2026-12-02T00:00:00.000Z");
  const hours = (n: number) => new Date(createdAt.getTime() + n * 3_600_000);
  it("retries a young delivery after the backoff", () => {
    expect(afterFailure({ attempts: 1, createdAt }, createdAt, DEFAULT_RETRY_POLICY, () => 1)).toEqual({
      kind: "retry",
      at: new Date(createdAt.getTime() + 10_000),
    });
  });
  it("never schedules past the give-up time: the last attempt comes at it", () => {
    expect(afterFailure({ attempts: 30, createdAt }, hours(23.5), DEFAULT_RETRY_POLICY, () => 1)).toEqual({ kind: "retry", at: hours(24) });
  });
  it("is dead once the delivery is 24 h old", () => {
    expect(afterFailure({ attempts: 30, createdAt }, hours(24), DEFAULT_RETRY_POLICY)).toEqual({ kind: "dead" });
    expect(afterFailure({ attempts: 1, createdAt }, hours(25), DEFAULT_RETRY_POLICY)).toEqual({ kind: "dead" });
  });
});
