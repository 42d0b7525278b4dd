import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * How many files of a project run at once. vitest's default is one fewer than
 * the cores, one on a 2-core machine, and the API tests mostly wait on the
 * server and PostgreSQL. Each project has an order of its own: vitest runs
 * projects with different worker counts one after another.
 */
const sideBySide = (groupOrder: number, maxWorkers: number) => ({ maxWorkers, sequence: { groupOrder } });

// Four projects: `unit` (beside the code; some need the real PostgreSQL that
// test/vitest/global-setup.ts provides), `api` (HTTP against a real `next
// start`), `faults` and `bench`.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${root}` },
      { find: /^server-only$/, replacement: `${root}test/vitest/server-only-stub.ts` },
    ],
  },
  test: {
    setupFiles: ["test/vitest/setup-env.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "data/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts", "test/**/*.test.ts"],
          globalSetup: ["test/vitest/global-setup.ts"],
          ...sideBySide(0, 2),
        },
      },
      {
        extends: true,
        test: {
          name: "api",
          include: ["e2e/api/**/*.test.ts"],
          globalSetup: ["test/vitest/global-setup.ts", "test/api/start-server.ts"],
          // The files of a worker share its process and its modules, imported
          // once: each file imported the registry and most of server/ again,
          // 265 s of a CI run's 12 minutes here, and ran its tests on cold
          // code (issue 33; measured: 20 files 62 → 27 s). So what a process
          // keeps is shared: the id clock, which a file making ids at a future
          // `now` pushes ahead for the next (shared-process-guard.ts fails that
          // file), and the in-process counters (a file counts its own deltas).
          isolate: false,
          setupFiles: ["test/api/shared-process-guard.ts"],
          ...sideBySide(1, 2),
        },
      },
      {
        extends: true,
        // Real `next start` processes on a PostgreSQL of their own, which the
        // tests restart and whose app processes they kill (issue 14).
        test: { name: "faults", include: ["e2e/faults/**/*.test.ts"], testTimeout: 240_000, ...sideBySide(2, 1) },
      },
      {
        extends: true,
        // Needs the production build; starts its own PostgreSQL and server.
        test: { name: "bench", include: ["bench/**/*.test.ts"], ...sideBySide(3, 1) },
      },
    ],
  },
});
