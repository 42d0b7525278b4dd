import { describe, expect, it } from "vitest";
import { claimLoop } from "./claim-loop";

// The loop under the mail notification worker: claim as many as there are free slots, attempt them at once.
describe("claimLoop", () => {
  it("claims no more than its free slots, runs them at once, goes on after a failing pass; stop waits for attempts in flight", async () => {
    const queue = Array.from({ length: 7 }, (_, index) => index);
    const limits: number[] = [];
    const errors: unknown[] = [];
    let running = 0;
    let most = 0;
    const done: number[] = [];
    let scans = 0;
    const worker = claimLoop<number>({
      pollMs: 5,
      concurrency: 3,
      scan: async () => {
        scans++;
        if (scans === 2) throw new Error("scan fails once");
      },
      claim: async (limit) => {
        limits.push(limit);
        return queue.splice(0, limit);
      },
      attempt: async (item) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running--;
        done.push(item);
      },
      onPassError: (error) => errors.push(error),
      onAttemptError: () => {},
    });
    await expect.poll(() => done.length, { timeout: 5_000 }).toBe(7);
    await worker.stop();
    expect(most).toBe(3);
    expect(Math.max(...limits)).toBe(3);
    expect(errors).toEqual([new Error("scan fails once")]);
    expect(done.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("stop() lets the attempt in flight finish", async () => {
    let finished = false;
    let claimed = false;
    const worker = claimLoop<number>({
      pollMs: 5,
      concurrency: 1,
      scan: async () => {},
      claim: async () => (claimed ? [] : ((claimed = true), [1])),
      attempt: async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        finished = true;
      },
      onPassError: () => {},
      onAttemptError: () => {},
    });
    await expect.poll(() => claimed).toBe(true);
    await worker.stop();
    expect(finished).toBe(true);
  });
});
