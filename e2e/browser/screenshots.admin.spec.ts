import { existsSync } from "node:fs";
import { copyFile, mkdir } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { openQueue, rowOf, screenshotPath } from "@/test/browser/queue";

// Pictures for people (and the README): the queue, the approve dialog, the detail view, the nodes.
test.use({ viewport: { width: 1360, height: 860 } });

test("screenshots of the queue, the approve dialog and the detail view", async ({ page }) => {
  await openQueue(page, "gpu-a");
  await expect(rowOf(page, "node-001.fra1.acme.test")).toBeVisible();
  await page.screenshot({ path: screenshotPath("queue"), fullPage: true });
  // The README's picture: written when missing or asked for (BC_UPDATE_SCREENSHOTS=1), so
  // that every test run does not leave a changed binary in the worktree.
  if (process.env.BC_UPDATE_SCREENSHOTS || !existsSync("docs/screenshot-queue.png")) {
    await mkdir("docs", { recursive: true });
    await copyFile(screenshotPath("queue"), "docs/screenshot-queue.png");
  }

  await rowOf(page, "node-002.fra1.acme.test").getByRole("button", { name: "Approve node-002.fra1.acme.test" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("radio", { name: "Custom" }).check();
  await dialog.getByLabel("Custom time to live amount").fill("90");
  await dialog.getByLabel("Reason (optional)").fill("racked by ops, ticket OPS-1042");
  await page.screenshot({ path: screenshotPath("approve-dialog") });
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await page.goto("/pools/gpu-a?state=consumed");
  await rowOf(page, "node-005.fra1.acme.test").getByRole("link", { name: "node-005.fra1.acme.test" }).click();
  await expect(page.getByTestId("timeline-event")).toHaveCount(3);
  await page.screenshot({ path: screenshotPath("detail"), fullPage: true });

  await page.goto("/");
  await page.screenshot({ path: screenshotPath("overview"), fullPage: true });
});

test("the queue follows the system's dark mode", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await openQueue(page, "gpu-a");
  await expect(rowOf(page, "node-001.fra1.acme.test")).toBeVisible();
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).toBe("rgb(15, 18, 22)");
  await page.screenshot({ path: screenshotPath("queue-dark"), fullPage: true });
});

test("screenshots of a pool's nodes and a node's page, on a desktop and on a phone", async ({ page }) => {
  for (const [label, viewport] of [
    ["desktop", { width: 1360, height: 860 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.goto("/pools/gpu-a/nodes");
    await expect(page.getByTestId("node-row").first()).toBeVisible();
    await page.screenshot({ path: screenshotPath(`nodes-${label}`), fullPage: true });
    await page
      .getByTestId("node-row")
      .filter({ hasText: "gpu-a-02.fra1.acme.test" })
      .getByRole("link", { name: "gpu-a-02.fra1.acme.test" })
      .click();
    await expect(page.getByTestId("snapshot-diff")).toBeVisible();
    await page.screenshot({ path: screenshotPath(`node-${label}`), fullPage: true });
  }
  // The README's picture of a node's history and diff (written like the queue's).
  await page.setViewportSize({ width: 1360, height: 860 });
  await page.getByRole("region", { name: "History" }).screenshot({ path: screenshotPath("node-diff") });
  if (process.env.BC_UPDATE_SCREENSHOTS || !existsSync("docs/screenshot-node-diff.png"))
    await copyFile(screenshotPath("node-diff"), "docs/screenshot-node-diff.png");
});
