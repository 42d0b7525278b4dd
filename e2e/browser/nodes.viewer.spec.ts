import { expect, test } from "@playwright/test";

// Issue 12: viewers read nodes and their inventory but see no revoke control.
test("a viewer sees a node's page without the revoke control", async ({ page }) => {
  await page.goto("/pools/gpu-a/nodes");
  await page
    .getByTestId("node-row")
    .filter({ hasText: "gpu-a-01.fra1.acme.test" })
    .getByRole("link", { name: "gpu-a-01.fra1.acme.test" })
    .click();
  await expect(page.getByTestId("section-gpus").locator("tbody tr")).toHaveCount(8);
  await expect(page.getByTestId("node-detail")).toContainText("active");
  await expect(page.getByRole("button", { name: /Revoke/ })).toHaveCount(0);
});
