import { expect, test } from "@playwright/test";
import { LIVE_REFRESH_MS } from "@/components/nodes/live-refresh-interval";
import { applyInventoryChange } from "@/lib/inventory/gpu-server-inventory";
import { createAcmePool, createNodes, storedMachineOf } from "@/test/browser/data";
import { admitReportingNode, reportInventory } from "@/test/browser/node";

// Issue 12: a pool's nodes and each node's inventory and history, on the seeded nodes (SPEC D4).
const nodeRow = (page: import("@playwright/test").Page, hostname: string) => page.getByTestId("node-row").filter({ hasText: hostname });

test("a pool's nodes: the seeded GPU servers with their summary, stale and expiring ones marked; the state filter survives a reload", async ({
  page,
}) => {
  await page.goto("/pools/gpu-b");
  await page.getByRole("navigation", { name: "Pool sections" }).getByRole("link", { name: "Nodes" }).click();
  await expect(page).toHaveURL(/\/pools\/gpu-b\/nodes$/);
  await expect(nodeRow(page, "gpu-b-01.fra1.acme.test")).toBeVisible();
  await expect(nodeRow(page, "gpu-b-03.fra1.acme.test")).toHaveCount(0); // revoked: not in the default (active) list
  const fresh = nodeRow(page, "gpu-b-01.fra1.acme.test");
  await expect(fresh.getByTestId("hardware")).toHaveText("8 × NVIDIA H100 80GB HBM3 · 2 TiB RAM");
  await expect(fresh).toContainText("Ubuntu 22.04.4 LTS");
  await expect(fresh.getByTestId("certificate")).toContainText("expires soon"); // joined 26 days ago
  // seeded 3 hours before the seed ran: stale (a node seen just now is not: see the paging test)
  await expect(nodeRow(page, "gpu-b-02.fra1.acme.test").getByTestId("last-seen")).toContainText("stale");

  await page.getByRole("navigation", { name: "Filter by state" }).getByRole("link", { name: "revoked" }).click();
  await expect(page).toHaveURL(/\/pools\/gpu-b\/nodes\?state=revoked$/);
  await expect(page.getByTestId("node-row")).toHaveCount(1);
  await page.reload();
  await expect(page.getByTestId("node-row")).toHaveCount(1);
  await expect(nodeRow(page, "gpu-b-03.fra1.acme.test")).toContainText("revoked");
});

test("paging by cursor in the URL: 51 nodes are 50 and then 1, also after a reload", async ({ page }) => {
  const { poolId, siteId } = await createAcmePool("nodes-paging");
  const nodes = await createNodes(poolId, siteId, 51);
  await page.goto(`/pools/${poolId}/nodes`);
  await expect(page.getByTestId("node-row")).toHaveCount(50);
  await expect(page.getByTestId("node-row").first()).toContainText(nodes[0]!.hostname);
  await expect(page.getByTestId("node-row").first().getByTestId("last-seen")).not.toContainText("stale"); // seen just now
  await expect(page.getByTestId("node-row").first().getByTestId("certificate")).not.toContainText("expires soon"); // 30 days left
  await page.getByRole("link", { name: "Next page →" }).click();
  await expect(page).toHaveURL(new RegExp(`cursor=${nodes[49]!.id}`));
  await expect(page.getByTestId("node-row")).toHaveCount(1);
  await page.reload();
  await expect(page.getByTestId("node-row")).toHaveCount(1);
  await expect(page.getByTestId("node-row")).toContainText(nodes[50]!.hostname);
  await expect(page.getByRole("link", { name: "Next page →" })).toHaveCount(0);
});

test("a node's page: the GPU table, the three-snapshot history, and the diff shows the replaced GPU and the driver upgrade", async ({
  page,
}) => {
  await page.goto("/pools/gpu-a/nodes");
  await nodeRow(page, "gpu-a-02.fra1.acme.test").getByRole("link", { name: "gpu-a-02.fra1.acme.test" }).click();
  await expect(page).toHaveURL(/\/pools\/gpu-a\/nodes\/node_[0-9a-z]{26}$/);
  const gpus = page.getByTestId("section-gpus");
  await expect(gpus.locator("tbody tr")).toHaveCount(8);
  await expect(gpus.locator("tbody tr").first()).toContainText("NVIDIA H100 80GB HBM3");
  await expect(gpus.locator("tbody tr").first()).toContainText("550.90.07");
  await expect(page.getByTestId("section-disks").locator("tbody tr")).toHaveCount(2);
  await expect(page.getByTestId("snapshot")).toHaveCount(3);

  // latest vs previous by default: the replaced GPU
  const diff = page.getByTestId("snapshot-diff");
  await expect(diff.getByTestId("diff-row")).toHaveCount(1);
  await expect(diff.getByTestId("diff-row")).toContainText("gpus.7.uuid");
  await expect(diff.getByTestId("diff-row")).toHaveAttribute("data-kind", "changed");

  // the first snapshot against the second: the driver upgrade, old → new
  const options = page.getByLabel("Older").locator("option");
  const [, middle, oldest] = await options.evaluateAll((elements) => elements.map((element) => (element as HTMLOptionElement).value));
  await page.getByLabel("Older").selectOption(oldest!);
  await page.getByLabel("Newer").selectOption(middle!);
  await page.getByRole("button", { name: "Compare" }).click();
  await expect(page).toHaveURL(new RegExp(`from=${oldest}&to=${middle}`));
  const driver = diff.getByTestId("diff-row").filter({ hasText: "gpus.0.driverVersion" });
  await expect(driver).toContainText("550.54.15");
  await expect(driver).toContainText("550.90.07");
  await expect(diff.getByTestId("diff-row").filter({ hasText: "software.0.version" })).toContainText("1.16.1");
});

test("the consumed request links to the node it made, and the node back to it", async ({ page }) => {
  const request = await storedMachineOf("acme", "node-005.fra1.acme.test");
  await page.goto(`/pools/gpu-a/requests/${request.id}`);
  await page
    .getByTestId("request-detail")
    .getByRole("link", { name: /^node_/ })
    .click();
  await expect(page).toHaveURL(/\/pools\/gpu-a\/nodes\/node_[0-9a-z]{26}$/);
  await expect(page.getByTestId("node-detail")).toContainText("node-005.fra1.acme.test");
  await page.getByTestId("node-detail").getByRole("link", { name: request.id }).click();
  await expect(page).toHaveURL(new RegExp(`/pools/gpu-a/requests/${request.id}$`));
});

test("a report sent while the node's page is open appears as a new snapshot without a reload; the diff shows exactly the changed field", async ({
  page,
  baseURL,
}) => {
  const { poolId, siteId } = await createAcmePool("nodes-live");
  const node = await admitReportingNode(baseURL!, poolId, siteId);
  await page.clock.install(); // the page's refresh timer is then ours to move on (LIVE_REFRESH_MS)
  await page.goto(`/pools/${poolId}/nodes/${node.nodeId}`);
  await expect(page.getByTestId("snapshot")).toHaveCount(1);
  // a full reload would drop this (router.refresh re-renders in place, through the history API)
  await page.evaluate(() => Object.assign(window, { notReloaded: true }));

  expect(await reportInventory(baseURL!, node, applyInventoryChange(node.inventory, "gpu-replaced"))).toBe(200);
  await page.clock.fastForward(LIVE_REFRESH_MS);
  await expect(page.getByTestId("snapshot")).toHaveCount(2);
  const rows = page.getByTestId("snapshot-diff").getByTestId("diff-row");
  await expect(rows).toHaveCount(1);
  await expect(rows).toHaveAttribute("data-kind", "changed");
  await expect(rows).toContainText("gpus.7.uuid");
  await expect(page.getByTestId("snapshot").first()).toContainText("gpus");
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
});

test("a pool admin revokes a node with a reason; the page shows who, when and why, no control any more, and the node's next report is refused", async ({
  page,
  baseURL,
}) => {
  const { poolId, siteId } = await createAcmePool("nodes-revoke");
  const node = await admitReportingNode(baseURL!, poolId, siteId);
  await page.goto(`/pools/${poolId}/nodes/${node.nodeId}`);
  await page.getByRole("button", { name: "Revoke node" }).click();
  const dialog = page.getByRole("dialog", { name: `Revoke ${node.hostname}` });
  await dialog.getByLabel(/Reason/).fill("decommissioned, rack 7");
  await dialog.getByRole("button", { name: "Revoke", exact: true }).click();
  await expect(dialog).toBeHidden();
  const detail = page.getByTestId("node-detail");
  await expect(detail.locator(".badge-rejected")).toHaveText("revoked");
  await expect(detail).toContainText("decommissioned, rack 7");
  await expect(detail).toContainText("admin@acme.test");
  await expect(page.getByRole("button", { name: "Revoke node" })).toHaveCount(0);
  expect(await reportInventory(baseURL!, node, applyInventoryChange(node.inventory, "driver"))).toBe(401);
});

test("two active nodes with one system UUID are pointed out, in the list and on each node, until one is revoked", async ({ page }) => {
  const { poolId, siteId } = await createAcmePool("nodes-twins");
  const [first, second] = await createNodes(poolId, siteId, 2, { systemUuid: "5e2e0001-7a11-4d10-8052-0123456789ab" });
  const [alone] = await createNodes(poolId, siteId, 1);
  await page.goto(`/pools/${poolId}/nodes`);
  await expect(nodeRow(page, first!.hostname).getByTestId("machine-twin")).toHaveText("same machine as 1 other");
  await expect(nodeRow(page, second!.hostname).getByTestId("machine-twin")).toBeVisible();
  await expect(nodeRow(page, alone!.hostname).getByTestId("machine-twin")).toHaveCount(0);

  await page.goto(`/pools/${poolId}/nodes/${second!.id}`);
  const twins = page.getByTestId("machine-twins");
  await expect(twins).toContainText("same machine admitted again");
  await twins.getByRole("link", { name: first!.hostname }).click();
  await expect(page).toHaveURL(new RegExp(`/nodes/${first!.id}$`));
  await page.getByRole("button", { name: "Revoke node" }).click();
  const dialog = page.getByRole("dialog", { name: `Revoke ${first!.hostname}` });
  await dialog.getByLabel(/Reason/).fill("re-imaged: replaced by its new node");
  await dialog.getByRole("button", { name: "Revoke", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("machine-twins")).toHaveCount(0); // a revoked node has no twins

  await page.goto(`/pools/${poolId}/nodes/${second!.id}`);
  await expect(page.getByTestId("node-detail")).toBeVisible();
  await expect(page.getByTestId("machine-twins")).toHaveCount(0);
});
