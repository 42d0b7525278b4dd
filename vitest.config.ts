import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

// Two projects: `unit` (beside the code; some need the real PostgreSQL that
// test/vitest/global-setup.ts provides) and `api` (HTTP against a real `next start`).
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
          include: ["lib/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts", "test/**/*.test.ts"],
          globalSetup: ["test/vitest/global-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "api",
          include: ["e2e/api/**/*.test.ts"],
          globalSetup: ["test/vitest/global-setup.ts", "test/api/start-server.ts"],
        },
      },
      {
        extends: true,
        // Real `next start` processes on a PostgreSQL of their own, which the
        // tests restart and whose app processes they kill (issue 14).
        test: { name: "faults", include: ["e2e/faults/**/*.test.ts"], testTimeout: 240_000 },
      },
      {
        extends: true,
        // Needs the production build; starts its own PostgreSQL and server.
        test: { name: "bench", include: ["bench/**/*.test.ts"] },
      },
    ],
  },
});
