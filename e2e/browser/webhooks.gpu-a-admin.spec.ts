import { expect, test } from "@playwright/test";

// A webhook carries every event of its tenant: a role on one pool does not show them.
test("a pool-admin of one pool sees no webhooks", async ({ page }) => {
  await page.goto("/webhooks");
  await expect(page.getByText("No webhooks to show.")).toBeVisible();
  await expect(page.getByTestId("webhook-row")).toHaveCount(0);
});
