import { defineConfig } from "@playwright/test";
import { freePort } from "./test/harness/start-app-server";
import { E2E_ROLES } from "./test/browser/roles";
import { CHROMIUM_HEADLESS_SHELL } from "./test/harness/chromium";

// Browser tests of the console (Debian's Chromium headless shell; Playwright downloads none).
// The app server is `next start` on the test database, started by
// test/browser/global-setup.ts on this port. The port is chosen here,
// once, in the main process; workers load this file again and inherit it.
process.env.BC_E2E_PORT ??= String(await freePort());
// The app server runs no background workers (retention would change the requests specs set up).
process.env.BC_WORKERS = "off";
// signin.admin.spec.ts expects the demo accounts listed, which DATABASE_URL alone switches off.
process.env.BC_DEMO_MODE ??= "1";
const baseURL = process.env.BC_E2E_BASE_URL ?? `http://127.0.0.1:${process.env.BC_E2E_PORT}`;

export default defineConfig({
  testDir: "e2e/browser",
  outputDir: "e2e/output",
  globalSetup: "./test/browser/global-setup.ts",
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Two cores: one for the app server and PostgreSQL, one or two browsers.
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/playwright.json" }]],
  use: {
    baseURL,
    // A failed test keeps its trace: each action's DOM snapshot, network and
    // console, and the screenshot at the failure. Not the screencast: filming
    // every test cost Chromium a third of its CPU in the whole suite (issue 33).
    // Not in CI (`.ci/run` sets CI): a trace is recorded for every test and
    // kept for a failed one, but CI keeps only what the run prints, so a
    // failure there is read from its error and call log, then rerun here,
    // where the trace is kept. Recording cost a tenth of the browser tests'
    // CPU (measured on three specs; issue 33).
    trace: process.env.CI ? "off" : { mode: "retain-on-failure", screenshots: false, snapshots: true, sources: false },
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.BC_E2E_CHROMIUM || CHROMIUM_HEADLESS_SHELL,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    // Signs in once per role and saves the session (e2e/.auth/<role>.json).
    { name: "setup", testMatch: /auth\.setup\.ts$/ },
    // An operator's first deployment from an empty database (README), on a server of its own.
    { name: "first-deployment", testMatch: /first-deployment\.spec\.ts$/ },
    // Single sign-on through a real OpenID provider on loopback, on an app server of its own.
    { name: "sso", testMatch: /sso\.spec\.ts$/ },
    // The link in a mail the notification worker sent, opened signed out (issue #39).
    { name: "notification-link", testMatch: /notification-link\.spec\.ts$/ },
    // A spec runs as the role its file name ends with: queue.admin.spec.ts, permissions.viewer.spec.ts, ...
    ...E2E_ROLES.map((role) => ({
      name: role.name,
      testMatch: new RegExp(`\\.${role.name}\\.spec\\.ts$`),
      dependencies: ["setup"],
      use: { storageState: role.storageState },
    })),
  ],
});
