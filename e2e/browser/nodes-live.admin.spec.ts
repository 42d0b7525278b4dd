import { expect, test, type Page } from "@playwright/test";
import type { GpuServerInventory } from "@/lib/inventory/gpu-server-inventory";
import { createAcmePool } from "@/test/browser/data";
import { admitReportingNode, reportInventory } from "@/test/browser/node";

// Issue 12: the nodes list's empty state and live refresh (paused while the
// tab is hidden), and a section the console does not know shown as JSON.

/** Makes the page believe its tab was hidden or shown, as a browser switching tabs does. */
async function setVisibility(page: Page, state: "hidden" | "visible") {
  await page.evaluate((visibility) => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => visibility });
    document.dispatchEvent(new Event("visibilitychange"));
  }, state);
}

test("an empty pool says so; a node admitted meanwhile appears without a reload", async ({ page, baseURL }) => {
  const { poolId, siteId } = await createAcmePool("nodes-empty");
  await page.goto(`/pools/${poolId}/nodes`);
  await expect(page.getByTestId("nodes-empty")).toContainText("No active nodes.");
  await page.evaluate(() => Object.assign(window, { notReloaded: true }));

  const node = await admitReportingNode(baseURL!, poolId, siteId);
  await expect(page.getByTestId("node-row").filter({ hasText: node.hostname })).toBeVisible({ timeout: 20_000 }); // refreshed every 15 s
  await expect(page.getByTestId("nodes-empty")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
});

test("while the tab is hidden the list is not refreshed; shown again, it is refreshed at once", async ({ page, baseURL }) => {
  const { poolId, siteId } = await createAcmePool("nodes-hidden");
  await page.goto(`/pools/${poolId}/nodes`);
  await expect(page.getByTestId("nodes-empty")).toBeVisible();
  await setVisibility(page, "hidden");

  const node = await admitReportingNode(baseURL!, poolId, siteId);
  await page.waitForTimeout(17_000); // past one 15 s interval
  await expect(page.getByTestId("node-row")).toHaveCount(0);

  await setVisibility(page, "visible");
  await expect(page.getByTestId("node-row").filter({ hasText: node.hostname })).toBeVisible({ timeout: 5_000 });
});

test("a section the console does not know is shown as formatted JSON", async ({ page, baseURL }) => {
  const { poolId, siteId } = await createAcmePool("nodes-unknown-section");
  const node = await admitReportingNode(baseURL!, poolId, siteId);
  const sections = { ...node.inventory, "rack-position": { row: 7, slot: "U22" } } as GpuServerInventory;
  expect(await reportInventory(baseURL!, node, sections)).toBe(200);
  await page.goto(`/pools/${poolId}/nodes/${node.nodeId}`);
  const json = page.getByTestId("section-rack-position");
  await expect(json).toBeVisible();
  expect(JSON.parse((await json.textContent()) ?? "")).toEqual({ row: 7, slot: "U22" });
  await expect(json).toContainText('"slot": "U22"'); // indented, one field a line
});
