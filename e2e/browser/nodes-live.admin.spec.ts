import { expect, test, type Page } from "@playwright/test";
import { LIVE_REFRESH_MS } from "@/components/nodes/live-refresh-interval";
import type { GpuServerInventory } from "@/lib/inventory/gpu-server-inventory";
import { createAcmePool } from "@/test/browser/data";
import { admitReportingNode, reportInventory } from "@/test/browser/node";

// Issue 12: the nodes list's empty state and live refresh (paused while the
// tab is hidden), and a section the console does not know shown as JSON.

/** The page's own refreshes (router.refresh fetches the page's server components; prefetches of links are not counted). */
function countRefreshes(page: Page): () => number {
  let refreshes = 0;
  page.on("request", (request) => {
    const headers = request.headers();
    if (headers.rsc === "1" && !headers["next-router-prefetch"]) refreshes++;
  });
  return () => refreshes;
}

/** Makes the page believe its tab was hidden or shown, as a browser switching tabs does. */
async function setVisibility(page: Page, state: "hidden" | "visible") {
  await page.evaluate((visibility) => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => visibility });
    document.dispatchEvent(new Event("visibilitychange"));
  }, state);
}

test("an empty pool says so; a node admitted meanwhile appears without a reload", async ({ page, baseURL }) => {
  const { poolId, siteId } = await createAcmePool("nodes-empty");
  await page.clock.install(); // the page's refresh timer is then ours to move on
  const refreshes = countRefreshes(page);
  await page.goto(`/pools/${poolId}/nodes`);
  await expect(page.getByTestId("nodes-empty")).toContainText("No active nodes.");
  await page.evaluate(() => Object.assign(window, { notReloaded: true }));

  const node = await admitReportingNode(baseURL!, poolId, siteId);
  await page.clock.fastForward(LIVE_REFRESH_MS);
  await expect(page.getByTestId("node-row").filter({ hasText: node.hostname })).toBeVisible();
  expect(refreshes()).toBeGreaterThan(0); // what the hidden tab's test counts is what refreshed this one
  await expect(page.getByTestId("nodes-empty")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
});

test("while the tab is hidden the list is not refreshed; shown again, it is refreshed at once", async ({ page, baseURL }) => {
  const { poolId, siteId } = await createAcmePool("nodes-hidden");
  await page.clock.install();
  const refreshes = countRefreshes(page);
  await page.goto(`/pools/${poolId}/nodes`);
  await expect(page.getByTestId("nodes-empty")).toBeVisible();
  await setVisibility(page, "hidden");

  const node = await admitReportingNode(baseURL!, poolId, siteId);
  await page.clock.fastForward(2 * LIVE_REFRESH_MS); // past two intervals, had the timer run
  await page.waitForTimeout(500); // a refresh's request leaves the browser at once; none may
  expect(refreshes()).toBe(0);
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
