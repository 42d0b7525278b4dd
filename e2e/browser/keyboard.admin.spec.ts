import { expect, test, type Page } from "@playwright/test";
import { createAcmePool, createPendingRequest, storedRequest } from "@/test/browser/data";
import { openQueue, rowOf } from "@/test/browser/queue";

// Issue 15 item 3: the queue worked without a mouse; focus checked after each step.

const focusedRequestId = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.closest("tr")?.dataset.requestId ?? null);
const focusedIs = (page: Page, id: string) => expect.poll(() => focusedRequestId(page)).toBe(id);

test("keyboard only: j/k move between rows, a approves, r rejects with a reason, x selects; focus stays in the queue", async ({ page }) => {
  const { poolId, siteId } = await createAcmePool("keyboard");
  const created = [];
  for (let i = 0; i < 4; i++) created.push(await createPendingRequest({ poolId, siteId, label: `kb${i}` }));
  const [first, second, third, fourth] = created.sort((a, b) => (a.id < b.id ? -1 : 1));
  await openQueue(page, poolId);

  await page.keyboard.press("j");
  await focusedIs(page, first!.id);
  await page.keyboard.press("j");
  await page.keyboard.press("ArrowDown");
  await focusedIs(page, third!.id);
  await page.keyboard.press("k");
  await focusedIs(page, second!.id);

  // a → the approve dialog for the focused row; Enter on its default button approves.
  await page.keyboard.press("a");
  const approve = page.getByRole("dialog", { name: `Approve ${second!.hostname}` });
  await expect(approve).toBeVisible();
  await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(true); // the dialog took the focus
  await approve.getByRole("button", { name: "Approve", exact: true }).focus();
  await page.keyboard.press("Enter");
  await expect(approve).toBeHidden();
  await expect(rowOf(page, second!.hostname)).toHaveCount(0);
  expect((await storedRequest(second!.id)).state).toBe("approved");
  // The decided row left the pending view: the one that took its place has the focus.
  await focusedIs(page, third!.id);

  // Escape closes a dialog and gives the focus back to the row.
  await page.keyboard.press("r");
  const reject = page.getByRole("dialog", { name: `Reject ${third!.hostname}` });
  await expect(reject).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(reject).toBeHidden();
  await focusedIs(page, third!.id);

  // Keys typed into the reason are text, not shortcuts.
  await page.keyboard.press("r");
  await expect(reject).toBeVisible();
  await reject.getByLabel("Reason").focus();
  await page.keyboard.type("jk ax not ours");
  await expect(reject.getByLabel("Reason")).toHaveValue("jk ax not ours");
  await page.keyboard.press("Enter");
  await expect(reject).toBeHidden();
  await expect(rowOf(page, third!.hostname)).toHaveCount(0);
  const rejected = await storedRequest(third!.id);
  expect(rejected.state).toBe("rejected");
  expect(rejected.reason).toBe("jk ax not ours");
  await focusedIs(page, fourth!.id);

  // x selects the focused row for a bulk decision.
  await page.keyboard.press("x");
  await expect(rowOf(page, fourth!.hostname).getByRole("checkbox")).toBeChecked();
  await expect(page.getByTestId("bulk-bar")).toContainText("1 selected");
  await focusedIs(page, fourth!.id);
  expect((await storedRequest(first!.id)).state).toBe("pending");
});

test("? lists the shortcuts; Escape closes the list and the focus goes back", async ({ page }) => {
  const { poolId, siteId } = await createAcmePool("keyboard-help");
  const request = await createPendingRequest({ poolId, siteId, label: "kbhelp" });
  await openQueue(page, poolId);
  await page.keyboard.press("j");
  await focusedIs(page, request.id);
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeVisible();
  for (const does of [
    "next request",
    "previous request",
    "approve the request",
    "reject it (withdraw an approval)",
    "select it for a bulk decision",
  ]) {
    await expect(help.getByText(does, { exact: true })).toBeVisible();
  }
  // Shortcuts do not fire behind an open dialog.
  await page.keyboard.press("a");
  await expect(page.getByRole("dialog")).toHaveCount(1);
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();
  await focusedIs(page, request.id);
});
