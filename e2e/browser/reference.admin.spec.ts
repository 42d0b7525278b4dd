import { expect, test } from "@playwright/test";
import { screenshotPath } from "./support/queue";

// The joinRequests reference page as a reader sees it (a screenshot for people beside SPEC Part A).
test("the joinRequests reference page renders Part A's tables", async ({ page }) => {
  await page.goto("/docs/api/joinRequests");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("joinRequests");
  await expect(page.getByTestId("method-row")).toHaveCount(3);
  await expect(page.getByTestId("method-joinRequests/list").getByTestId("input-row")).toHaveCount(5);
  await page.screenshot({ path: screenshotPath("reference-join-requests"), fullPage: true });
});
