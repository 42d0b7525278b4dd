import { describe, expect, it } from "vitest";
import { formatDuration, formatPhaseTable, startPhaseClock } from "./phase-times";

/** A clock that moves only when told to. */
function fakeTime() {
  let ms = 1_000;
  return { now: () => ms, advance: (by: number) => (ms += by) };
}

describe("startPhaseClock", () => {
  it("records each phase's start, duration and outcome, failures included", async () => {
    const time = fakeTime();
    const clock = startPhaseClock(time.now);
    time.advance(500);
    expect(await clock.time("build", async () => (time.advance(90_000), "built"))).toBe("built");
    await expect(
      clock.time("migrate", async () => {
        time.advance(2_000);
        throw new Error("migration failed");
      }),
    ).rejects.toThrow("migration failed");
    await clock.time(
      "vitest",
      async () => (time.advance(3_000), 1),
      (code) => (code === 0 ? "passed" : "failed"),
    );
    clock.skip("Playwright");

    expect(clock.phases()).toEqual([
      { name: "build", startMs: 500, durationMs: 90_000, outcome: "passed" },
      { name: "migrate", startMs: 90_500, durationMs: 2_000, outcome: "failed" },
      { name: "vitest", startMs: 92_500, durationMs: 3_000, outcome: "failed" },
      { name: "Playwright", startMs: 95_500, durationMs: 0, outcome: "skipped" },
    ]);
    expect(clock.elapsedMs()).toBe(95_500);
  });

  it("times phases that run side by side from their own starts", async () => {
    const time = fakeTime();
    const clock = startPhaseClock(time.now);
    let finishA!: () => void;
    const a = clock.time("a", () => new Promise<void>((resolve) => (finishA = resolve)));
    time.advance(1_000);
    await clock.time("b", async () => time.advance(4_000));
    finishA();
    await a;
    expect(clock.phases().map(({ name, startMs, durationMs }) => [name, startMs, durationMs])).toEqual([
      ["a", 0, 5_000],
      ["b", 1_000, 4_000],
    ]);
  });
});

describe("formatDuration", () => {
  it("shows seconds under a minute and minutes with seconds above", () => {
    expect(formatDuration(0)).toBe("0.0 s");
    expect(formatDuration(4_249)).toBe("4.2 s");
    expect(formatDuration(59_940)).toBe("59.9 s");
    expect(formatDuration(60_000)).toBe("1m 00s");
    expect(formatDuration(528_400)).toBe("8m 48s");
  });
});

describe("formatPhaseTable", () => {
  it("lines up one row per phase and a total that fails when any phase failed", () => {
    const table = formatPhaseTable(
      [
        { name: "PostgreSQL start", startMs: 300, durationMs: 2_100, outcome: "passed" },
        { name: "vitest api", startMs: 95_000, durationMs: 250_000, outcome: "failed" },
        { name: "Playwright", startMs: 95_000, durationMs: 0, outcome: "skipped" },
      ],
      345_400,
    );
    expect(table.split("\n")).toEqual([
      "Phase times (wall clock; overlapping starts ran side by side):",
      "  phase             start    took  result",
      "  PostgreSQL start   0:00   2.1 s  passed",
      "  vitest api         1:35  4m 10s  failed",
      "  Playwright         1:35       -  skipped",
      "  total                    5m 45s  failed",
    ]);
  });

  it("passes the total when nothing failed", () => {
    expect(
      formatPhaseTable([{ name: "seed", startMs: 0, durationMs: 1, outcome: "passed" }], 1)
        .split("\n")
        .at(-1),
    ).toBe("  total         0.0 s  passed");
  });
});
