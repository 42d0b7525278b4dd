import { afterEach, describe, expect, it, vi } from "vitest";
import { startWorkersOnce } from "./start-workers";

// The guard instrumentation's register() relies on; the real thing (next start
// with BC_WORKERS on and off) is e2e/api/webhooks-workers.test.ts.
const registry = globalThis as { __betterComputeWorkers?: unknown };
afterEach(() => {
  registry.__betterComputeWorkers = undefined;
});

describe("startWorkersOnce", () => {
  it("starts the workers once per process, however often it is called (dev hot reloads)", async () => {
    const handle = { stop: vi.fn(async () => {}) };
    const start = vi.fn(() => handle);
    const calls = await Promise.all([startWorkersOnce({ enabled: true, start }), startWorkersOnce({ enabled: true, start })]);
    expect(await startWorkersOnce({ enabled: true, start })).toBe(handle);
    expect(calls).toEqual([handle, handle]);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it("starts none when disabled (BC_WORKERS=off)", async () => {
    const start = vi.fn(() => ({ stop: async () => {} }));
    expect(await startWorkersOnce({ enabled: false, start })).toBeNull();
    expect(start).not.toHaveBeenCalled();
  });
});
