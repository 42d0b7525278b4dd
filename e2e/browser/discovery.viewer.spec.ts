import { expect, test } from "@playwright/test";

// A tenant-wide pool-viewer reads the attestors' knowledge (SPEC E2) but is
// offered no control to change it.
test("a viewer reads fra1's discovery inventory and acme's TPM allow-list without manage controls", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("site-fra1").getByRole("link", { name: "Discovery inventory" }).click();
  await expect(page).toHaveURL("/sites/fra1/discovery");
  await expect(page.getByTestId("discovery-row").filter({ hasText: "11111111-1111-4111-8111-111111111118" })).toContainText("gpu-b");
  await expect(page.getByTestId("discovery-import")).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Remove / })).toHaveCount(0);
  await page.goto("/tenants/acme/tpm");
  await expect(
    page.getByTestId("tpm-row").filter({ hasText: "15426fb055f5461484bf419f7e67ba400ddfc2b54d90981cb9f65f6ffc228af1" }),
  ).toBeVisible();
  await expect(page.getByTestId("tpm-allow-form")).toHaveCount(0);
});
