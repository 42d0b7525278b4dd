import { expect, test } from "@playwright/test";
import { expectNoSidewaysScroll } from "@/test/browser/layout";
import { createAcmePool, createNodes, createPendingRequest, storedRequest } from "@/test/browser/data";
import { openQueue, rowOf, screenshotPath } from "@/test/browser/queue";

// Issue 15 item 1: every page usable from a phone up; no sideways page scroll.

const SIZES = [
  ["phone", { width: 390, height: 844 }],
  ["desktop", { width: 1366, height: 850 }],
] as const;

for (const [size, viewport] of SIZES) {
  test(`${size}: every console page fits the width: queue, request, overview, events, nodes, a node, discovery, TPM allow-list, webhooks`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    const { poolId, siteId } = await createAcmePool(`fit-${size}`);
    const request = await createPendingRequest({
      poolId,
      siteId,
      label: `fit-${size}`,
      reasons: ["placeholder-hardware-id", "unknown-to-discovery"],
    });
    const [node] = await createNodes(poolId, siteId, 1);
    const pages = [
      ["queue", `/pools/${poolId}`],
      ["queue, all states", `/pools/${poolId}?state=all`],
      ["request detail", `/pools/${poolId}/requests/${request.id}`],
      ["overview", "/"],
      ["event log", `/pools/${poolId}/events`],
      ["nodes", "/pools/gpu-a/nodes"],
      ["node", `/pools/${poolId}/nodes/${node!.id}`],
      ["discovery", "/sites/fra1/discovery"],
      ["TPM allow-list", "/tenants/acme/tpm"],
      ["webhooks", "/webhooks"],
    ] as const;
    for (const [what, path] of pages) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByTestId("queue-loading")).toHaveCount(0);
      await expectNoSidewaysScroll(page, what);
    }
  });
}

test("phone: a request is a card with its facts labelled; Approve is in reach and works", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { poolId, siteId } = await createAcmePool("phone-approve");
  const request = await createPendingRequest({ poolId, siteId, label: "phone" });
  await openQueue(page, poolId);
  const row = rowOf(page, request.hostname);
  // A card: the row is no wider than the screen and the header row is not shown.
  const box = (await row.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  // Of the header row only the select-all box shows, in words and in reach; each cell says what it is.
  const thead = page.getByTestId("requests-table").locator("thead");
  await expect(thead.getByRole("columnheader", { name: "Machine" })).toBeHidden();
  const selectAll = thead.getByRole("checkbox", { name: "Select every pending request on this page" });
  await expect(thead.getByText("Select every pending request on this page")).toBeVisible();
  const selectAllTarget = (await selectAll.locator("xpath=..").boundingBox())!;
  expect(selectAllTarget.height, "select-all touch target").toBeGreaterThanOrEqual(44);
  expect(selectAllTarget.x + selectAllTarget.width).toBeLessThanOrEqual(390);
  await expect(row.locator("td[data-label='Reasons']")).toBeVisible();
  await page.screenshot({ path: screenshotPath("queue-phone"), fullPage: true });

  const approve = row.getByRole("button", { name: `Approve ${request.hostname}` });
  await approve.scrollIntoViewIfNeeded();
  const target = (await approve.boundingBox())!;
  expect(target.height, "touch target height").toBeGreaterThanOrEqual(44);
  expect(target.x + target.width).toBeLessThanOrEqual(390);
  const select = row.getByRole("checkbox", { name: `Select ${request.hostname}` });
  const selectTarget = (await select.locator("xpath=..").boundingBox())!;
  expect(Math.min(selectTarget.width, selectTarget.height), "selection touch target").toBeGreaterThanOrEqual(44);

  await selectAll.check();
  await expect(page.getByTestId("bulk-bar")).toContainText("1 selected");
  await expect(select).toBeChecked();
  await selectAll.uncheck();

  await approve.click();
  const dialog = page.getByRole("dialog", { name: `Approve ${request.hostname}` });
  const dialogBox = (await dialog.boundingBox())!;
  expect(dialogBox.x).toBeGreaterThanOrEqual(0);
  expect(dialogBox.x + dialogBox.width, "the dialog fits the screen").toBeLessThanOrEqual(390);
  await dialog.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(rowOf(page, request.hostname)).toHaveCount(0);
  expect((await storedRequest(request.id)).state).toBe("approved");
});
