import { expect, test } from "@playwright/test";
import { expectNoAxeViolationsInBothSchemes } from "@/test/browser/axe";
import { join, makeMachine } from "@/test/browser/machine";

// Issue 15 item 2, for the dialog only a tenant admin sees: "Trust this machine"
// (SPEC E3), audited open and after it answered, each in both colour schemes
// (test/browser/axe.ts). "Allow this TPM" is the same component with other words.

test("the Trust this machine dialog, open and with its results", async ({ page, baseURL }) => {
  const machine = await makeMachine("a11y-trust");
  const first = await join(baseURL!, machine);
  expect(first.status, JSON.stringify(first.body)).toBe(202);

  await page.goto(`/pools/gpu-b/requests/${first.body.requestId}`);
  await page.getByRole("button", { name: "Trust this machine…" }).click();
  const dialog = page.getByRole("dialog", { name: `Trust this machine: ${machine.hostname}` });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolationsInBothSchemes(page);

  await dialog.getByRole("button", { name: "Trust and approve" }).click();
  await expect(dialog.getByTestId("teach-results")).toContainText("Approved for gpu-b until");
  await expectNoAxeViolationsInBothSchemes(page);
});
