import { expect, test } from "@playwright/test";
import { DEMO_PASSWORD } from "@/server/seed/demo-data";

// Issue 14: the sign-in page under a hostile callbackUrl, and the console under its CSP.
test.use({ storageState: { cookies: [], origins: [] } });

for (const callbackUrl of ["/%09/evil.example", "/%5C/evil.example", "//evil.example"]) {
  test(`callbackUrl ${callbackUrl} lands on this site's overview after sign-in`, async ({ page, baseURL }) => {
    await page.goto(`/signin?callbackUrl=${callbackUrl}`);
    await page.getByLabel("Email").fill("admin@acme.test");
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(`${baseURL}/`);
    await expect(page.getByTestId("signed-in-as")).toHaveText("admin@acme.test");
  });
}

test("the console's pages run under the CSP with no violation", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to (execute|load)/i.test(message.text())) violations.push(message.text());
  });
  await page.goto("/signin?callbackUrl=%2Fpools%2Fgpu-a");
  await page.getByRole("button", { name: "Use admin@acme.test" }).click(); // hydrated: a click handler runs
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL("/pools/gpu-a");
  await page.goto("/webhooks");
  await expect(page.getByRole("heading", { name: "Webhooks" })).toBeVisible();
  expect(violations).toEqual([]);
});
