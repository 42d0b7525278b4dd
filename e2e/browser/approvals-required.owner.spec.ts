import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "@/test/browser/axe";
import { createAcmePool, storedApprovalsRequired } from "@/test/browser/data";

// SPEC H1: a tenant-admin (owner@acme.test) sets a pool's approvals required
// on the pool's page, through pools/update. A pool of its own, so gpu-c keeps
// its 2 for the other specs.

test("a tenant-admin sets approvals required to 3 on the pool's page", async ({ page }) => {
  const { poolId } = await createAcmePool("approvals");
  await page.goto(`/pools/${poolId}`);
  await expect(page.getByTestId("approvals-required")).toHaveText("1 approval required");
  await page.getByRole("button", { name: "Change approvals required…" }).click();
  const dialog = page.getByRole("dialog", { name: `Approvals required in ${poolId}` });
  await expect(dialog.getByLabel("Approvals required")).toHaveValue("1");
  await dialog.getByLabel("Approvals required").selectOption("3");
  await expectNoAxeViolations(page);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`${poolId} requires 3 approvals`)).toBeVisible(); // the toast
  await expect(page.getByTestId("approvals-required")).toHaveText("3 approvals required"); // the page rendered again
  expect(await storedApprovalsRequired(poolId)).toBe(3);
  // the focus went back to the control that opened the dialog
  await expect(page.getByRole("button", { name: "Change approvals required…" })).toBeFocused();
});
