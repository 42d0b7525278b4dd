// Where `npm test`'s time goes: each phase's start and duration, printed as a
// table at the end (issue 33: CI must stay under 12 minutes, so every run says
// which phase to look at). Phases may overlap: the start column shows which ran
// side by side.

export type PhaseOutcome = "passed" | "failed" | "skipped";

export interface Phase {
  name: string;
  /** ms since the clock started */
  startMs: number;
  durationMs: number;
  outcome: PhaseOutcome;
}

export interface PhaseClock {
  /**
   * Runs one phase and records it: "failed" when it throws (the error is passed
   * on) or when `outcomeOf` says so for its result, else "passed".
   */
  time<T>(name: string, run: () => Promise<T>, outcomeOf?: (result: T) => PhaseOutcome): Promise<T>;
  /** Records a phase that did not run. */
  skip(name: string): void;
  /** The phases so far, in the order they started. */
  phases(): Phase[];
  elapsedMs(): number;
}

export function startPhaseClock(now: () => number = () => performance.now()): PhaseClock {
  const origin = now();
  const recorded: Phase[] = [];
  return {
    async time(name, run, outcomeOf) {
      const phase: Phase = { name, startMs: now() - origin, durationMs: 0, outcome: "failed" };
      recorded.push(phase);
      try {
        const result = await run();
        phase.outcome = outcomeOf ? outcomeOf(result) : "passed";
        return result;
      } finally {
        phase.durationMs = now() - origin - phase.startMs;
      }
    },
    skip(name) {
      recorded.push({ name, startMs: now() - origin, durationMs: 0, outcome: "skipped" });
    },
    phases: () => recorded.map((phase) => ({ ...phase })),
    elapsedMs: () => now() - origin,
  };
}

/** 4.2 s under a minute, else 8m 48s: the table's resolution is what a person compares. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, "0")}s`;
}

/** An offset from the start of the run, as m:ss. */
function formatOffset(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

export function formatPhaseTable(phases: Phase[], totalMs: number): string {
  const rows = [
    ["phase", "start", "took", "result"],
    ...phases.map((phase) => [
      phase.name,
      formatOffset(phase.startMs),
      phase.outcome === "skipped" ? "-" : formatDuration(phase.durationMs),
      phase.outcome,
    ]),
    ["total", "", formatDuration(totalMs), phases.some((phase) => phase.outcome === "failed") ? "failed" : "passed"],
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  // name left-aligned, times right-aligned so they line up by their units
  const line = (row: string[]) =>
    row
      .map((cell, column) => (column === 0 || column === 3 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join("  ")
      .trimEnd();
  return ["Phase times (wall clock; overlapping starts ran side by side):", ...rows.map((row) => `  ${line(row)}`)].join("\n");
}
