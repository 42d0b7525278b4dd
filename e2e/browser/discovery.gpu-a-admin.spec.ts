import { expect, test } from "@playwright/test";

// A pool-scoped grant reaches no site or tenant page (SPEC E2): not found, as for a site that does not exist.
test("a pool-scoped admin gets not-found for the site inventory and the tenant allow-list", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Discovery inventory" })).toHaveCount(0);
  for (const path of ["/sites/fra1/discovery", "/tenants/acme/tpm"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
  }
});
