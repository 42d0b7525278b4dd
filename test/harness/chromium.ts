// The browser the Playwright specs drive: Debian's Chromium headless shell
// (package chromium-headless-shell; Playwright downloads no browser here).
// It is the same Blink and V8 as /usr/bin/chromium without the browser
// around them: in a measurement of 20 page loads it spent 16–27% less CPU
// than full Chromium in headless mode, and CI's Playwright lane is
// CPU-bound (issue 33). `npx playwright test --headed` needs the full
// browser: BC_E2E_CHROMIUM=/usr/bin/chromium.
export const CHROMIUM_HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
