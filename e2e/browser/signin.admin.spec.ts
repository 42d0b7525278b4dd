import { expect, test } from "@playwright/test";
import { DEMO_PASSWORD } from "@/server/seed/demo-data";

// Signing in, from a browser with no session.
test.use({ storageState: { cookies: [], origins: [] } });

test("a console page without a session goes to sign-in and comes back after it", async ({ page }) => {
  await page.goto("/pools/gpu-b?state=approved");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fpools%2Fgpu-b%3Fstate%3Dapproved$/);
  // The demo seed is present: its accounts are listed, and one click fills the form.
  await page.getByRole("button", { name: "Use viewer@acme.test" }).click();
  await expect(page.getByLabel("Email")).toHaveValue("viewer@acme.test");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL("/pools/gpu-b?state=approved");
  await expect(page.getByTestId("signed-in-as")).toHaveText("viewer@acme.test");
  await expect(page.getByRole("radio", { name: "approved" })).toBeChecked();
});

test("a wrong password is refused with a message, and no session", async ({ page, context }) => {
  await page.goto("/signin");
  await page.getByLabel("Email").fill("admin@acme.test");
  await page.getByLabel("Password").fill(`${DEMO_PASSWORD}-wrong`);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.locator("#signin-error")).toHaveText("Wrong email or password.");
  expect((await context.cookies()).some((cookie) => cookie.name.includes("session-token"))).toBe(false);
});

test("signing out ends the session", async ({ page }) => {
  await page.goto("/signin");
  await page.getByLabel("Email").fill("admin@acme.test");
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL("/");
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/signin/);
  await page.goto("/pools/gpu-a");
  await expect(page).toHaveURL(/\/signin/);
});
