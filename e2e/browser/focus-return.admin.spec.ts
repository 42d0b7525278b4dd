import { expect, test, type Locator, type Page } from "@playwright/test";
import { createAcmePool, createNodes, createPendingRequest } from "@/test/browser/data";
import { openQueue, rowOf } from "@/test/browser/queue";

// Issue 15 item 2: a dialog opened from the keyboard gives focus back to the
// button that opened it when it closes, by Escape or by Cancel, and also when
// the queue refreshed the opener's row while the dialog was open.

async function openWithKeyboard(page: Page, opener: Locator, dialogName: string) {
  await opener.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: dialogName });
  await expect(dialog).toBeVisible();
  return dialog;
}

const closers = {
  Escape: (page: Page) => page.keyboard.press("Escape"),
  Cancel: (page: Page) => page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click(),
};

for (const [closerName, close] of Object.entries(closers)) {
  test(`approve, reject, bulk and revoke dialogs closed by ${closerName} give focus back to their opener`, async ({ page }) => {
    const { poolId, siteId } = await createAcmePool("focus");
    const request = await createPendingRequest({ poolId, siteId, label: "focus" });
    await openQueue(page, poolId);
    for (const decision of ["Approve", "Reject"]) {
      const opener = rowOf(page, request.hostname).getByRole("button", { name: `${decision} ${request.hostname}` });
      const dialog = await openWithKeyboard(page, opener, `${decision} ${request.hostname}`);
      await close(page);
      await expect(dialog).toBeHidden();
      await expect(opener).toBeFocused();
    }

    const other = await createPendingRequest({ poolId, siteId, label: "focus" });
    for (const selected of [request, other])
      await rowOf(page, selected.hostname)
        .getByRole("checkbox", { name: `Select ${selected.hostname}` })
        .check();
    for (const decision of ["Approve", "Reject"]) {
      const opener = page.getByRole("button", { name: `${decision} selected` });
      const dialog = await openWithKeyboard(page, opener, `${decision} 2 requests`);
      await close(page);
      await expect(dialog).toBeHidden();
      await expect(opener).toBeFocused();
    }

    const [node] = await createNodes(poolId, siteId, 1);
    await page.goto(`/pools/${poolId}/nodes/${node!.id}`);
    const opener = page.getByRole("button", { name: "Revoke node" });
    const dialog = await openWithKeyboard(page, opener, `Revoke ${node!.hostname}`);
    await close(page);
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
  });
}

test("focus goes back to the row's button when the queue refreshed while the dialog was open", async ({ page }) => {
  const { poolId, siteId } = await createAcmePool("focus-live");
  const request = await createPendingRequest({ poolId, siteId, label: "focus" });
  await openQueue(page, poolId);
  const opener = rowOf(page, request.hostname).getByRole("button", { name: `Approve ${request.hostname}` });
  const dialog = await openWithKeyboard(page, opener, `Approve ${request.hostname}`);
  // A new request shows up with the next refresh (every 5 s), behind the dialog.
  const newcomer = await createPendingRequest({ poolId, siteId, label: "newcomer" });
  await expect(rowOf(page, newcomer.hostname)).toBeAttached({ timeout: 15_000 });
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});
