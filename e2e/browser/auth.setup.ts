import { expect, test as setup } from "@playwright/test";
import { DEMO_PASSWORD } from "@/server/seed/demo-data";
import { E2E_ROLES } from "@/test/browser/roles";

// Signs in once per role through the real sign-in page and saves the session.
// The storage state is saved only after the post-login page shows the user:
// saved earlier, it would hold no session cookie.
for (const role of E2E_ROLES) {
  setup(`sign in as ${role.name} (${role.email})`, async ({ page }) => {
    await page.goto("/signin");
    await page.getByLabel("Email").fill(role.email);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL("/");
    await expect(page.getByTestId("signed-in-as")).toHaveText(role.email);
    await page.context().storageState({ path: role.storageState });
  });
}
