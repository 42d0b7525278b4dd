import { expect, test } from "@playwright/test";

// SPEC H2: a pool viewer reads gpu-b's rules and their counts, and may dry-run
// one, but gets no control that changes them (compute:approval-rules:manage).
test("a viewer sees the rules read-only, may dry-run one, and has no editor for a new one", async ({ page }) => {
  await page.goto("/pools/gpu-b/rules");
  await expect(page.getByTestId("rule-row").first()).toBeVisible();
  await expect(page.getByTestId("rule-counts").first()).toBeVisible();
  await expect(page.getByRole("link", { name: "New rule" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^(Delete|Enforce|Move) / })).toHaveCount(0);

  await page.getByTestId("rule-row").first().getByRole("link").first().click();
  await expect(page.getByTestId("rule-facts")).toContainText("read only");
  await expect(page.getByLabel("Name")).toBeDisabled();
  await expect(page.getByRole("button", { name: /^Save/ })).toHaveCount(0);
  await page.getByRole("button", { name: "Dry run against the queue" }).click();
  await expect(page.getByTestId("dry-run-summary")).toBeVisible();

  const response = await page.goto("/pools/gpu-b/rules/new");
  expect(response?.status()).toBe(404);
});
