import { describe, expect, it } from "vitest";
import { everyInterval } from "./every-interval";

// The loop under the retention worker and the approval rules sweep.
describe("everyInterval", () => {
  it("runs a pass at start and again each interval; a failing pass is reported and the loop goes on; stop ends it", async () => {
    let passes = 0;
    const errors: unknown[] = [];
    const worker = everyInterval(
      5,
      async () => {
        passes++;
        if (passes === 2) throw new Error("second pass fails");
      },
      (error) => errors.push(error),
    );
    await expect.poll(() => passes, { timeout: 2_000 }).toBeGreaterThanOrEqual(3);
    await worker.stop();
    const stoppedAt = passes;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(passes).toBe(stoppedAt);
    expect(errors).toEqual([new Error("second pass fails")]);
  });

  it("stop() waits for the pass in flight", async () => {
    let finished = false;
    const worker = everyInterval(
      60_000,
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        finished = true;
      },
      () => {},
    );
    await worker.stop();
    expect(finished).toBe(true);
  });
});
