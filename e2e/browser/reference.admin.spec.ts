import { expect, test } from "@playwright/test";
import { screenshotPath } from "@/test/browser/queue";

// The joinRequests reference page as a reader sees it (a screenshot for people beside SPEC Part A).
test("the joinRequests reference page renders Part A's tables", async ({ page }) => {
  await page.goto("/docs/api/joinRequests");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("joinRequests");
  await expect(page.getByTestId("method-row")).toHaveCount(3);
  await expect(page.getByTestId("method-joinRequests/list").getByTestId("input-row")).toHaveCount(5);
  await page.screenshot({ path: screenshotPath("reference-join-requests"), fullPage: true });
});

// Issue 13 item 3: the interactive reference (Scalar) under the app's own CSP.
test("the interactive reference renders the document's methods with no CSP violation", async ({ page }) => {
  const consoleViolations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) consoleViolations.push(message.text());
  });
  const violations: { directive: string; blocked: string; source: string }[] = [];
  await page.exposeFunction("reportViolation", (violation: (typeof violations)[number]) => violations.push(violation));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { reportViolation: (violation: object) => void }).reportViolation;
      report({
        directive: event.violatedDirective,
        blocked: event.blockedURI,
        source: new URL(event.sourceFile || "/", location.href).pathname,
      });
    });
  });
  await page.goto("/docs/api");
  await page.getByTestId("interactive-reference").click();
  await page.waitForURL("**/docs/api/reference");
  await expect(page.getByText("Better Compute control plane").first()).toBeVisible();
  await expect(page.getByText("/api/compute/joinRequests/list").first()).toBeVisible();
  await expect(page.getByText("Lists the join requests a pool can decide").first()).toBeVisible();
  await page.screenshot({ path: screenshotPath("reference-interactive") });
  expect(consoleViolations).toEqual([]);
  // The one refusal expected: the zod inside Scalar's bundle probes whether it may compile
  // parsers (`try { new Function("") } catch`); the CSP says no, as meant, and zod parses without.
  const zodProbe = { directive: "script-src", blocked: "eval", source: "/docs/api/reference/scalar.js" };
  expect(violations.filter((violation) => JSON.stringify(violation) !== JSON.stringify(zodProbe))).toEqual([]);
});
