import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * How many files of a project run at once. vitest's default is one fewer than
 * the cores, one on a 2-core machine, and the API tests mostly wait on the
 * server and PostgreSQL. Each project has an order of its own: vitest runs
 * projects with different worker counts one after another.
 */
const sideBySide = (groupOrder: number, maxWorkers: number) => ({ maxWorkers, sequence: { groupOrder } });

const UNIT_FILES = ["lib/**/*.test.ts", "data/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts", "test/**/*.test.ts"];
const UNIT_FILES_OWN_PROCESS = [
  // tests the id clock itself, ids at future times included
  "lib/ids.test.ts",
  "server/auth/authorize-credentials.test.ts",
  "server/auth/console-origin.test.ts",
  "server/auth/next-auth-options.test.ts",
  "server/auth/nextauth-secret.test.ts",
  "server/auth/session-principal.test.ts",
  "server/db/embedded-database.test.ts",
  // runs retention a month ahead: its ids would hold a shared process's id clock there (shared-process-guard.ts)
  "server/retention/retention.test.ts",
  "server/users/list-demo-accounts.test.ts",
];

// Five projects: `unit` and `unit-own-process` (beside the code; some need the
// real PostgreSQL that test/vitest/global-setup.ts provides), `api` (HTTP against a real `next
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
          include: UNIT_FILES,
          exclude: [...UNIT_FILES_OWN_PROCESS, ...configDefaults.exclude],
          globalSetup: ["test/vitest/global-setup.ts"],
          // Files share their worker processes, as the API tests' do (below): a
          // process of each file's own compiled PGlite's Wasm and imported the
          // modules again, 171 s of import in CI's unit phase.
          isolate: false,
          setupFiles: ["test/vitest/shared-process-guard.ts"],
          ...sideBySide(0, 2),
        },
      },
      {
        extends: true,
        // The files that mock a module or set the environment before it is
        // first read (in a shared process the module would already be loaded,
        // the environment already parsed), or that make ids in the future.
        // `npm test` runs both unit projects.
        test: {
          name: "unit-own-process",
          include: UNIT_FILES_OWN_PROCESS,
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
          setupFiles: ["test/vitest/shared-process-guard.ts"],
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
