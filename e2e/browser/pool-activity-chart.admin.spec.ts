import { existsSync } from "node:fs";
import { copyFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { createAcmePool, createPendingRequest } from "@/test/browser/data";
import { callAsService } from "@/test/browser/service-api";
import { screenshotPath } from "@/test/browser/queue";
import { expectNoSidewaysScroll } from "@/test/browser/layout";
import { expectNoAxeViolations } from "@/test/browser/axe";

// The overview's picture of each pool's last 24 hours (issue 19): an SVG for
// the eye, summarised for screen readers, and a table holding the numbers.

const HOUR = 3600_000;
/** When this spec's machines asked, in hours before the current hour began (half past). */
const ASKED_HOURS_AGO = [20, 15, 9, 5, 3, 1];

const cardOf = (page: Page, poolId: string) => page.getByRole("listitem").filter({ has: page.getByTestId(`pool-${poolId}`) });

test("a pool's chart and its table hold the pending requests and decisions of the last 24 hours", async ({ page, request }) => {
  // the numbers are bucketed by the hour: start clear of an hour's turn
  if (Date.now() % HOUR > HOUR - 30_000) await page.waitForTimeout(HOUR - (Date.now() % HOUR) + 1000);
  const hourStart = Math.floor(Date.now() / HOUR) * HOUR;
  const { poolId, siteId } = await createAcmePool("chart");
  const requests = [];
  for (const hoursAgo of ASKED_HOURS_AGO) {
    requests.push(await createPendingRequest({ poolId, siteId, label: "chart", at: new Date(hourStart - hoursAgo * HOUR + HOUR / 2) }));
  }
  for (const { id } of requests.slice(0, 2)) {
    expect((await callAsService(request, "joinRequests/approve", { tenantId: "acme", poolId, requestId: id })).status).toBe(200);
  }
  expect((await callAsService(request, "joinRequests/reject", { tenantId: "acme", poolId, requestId: requests[2]!.id })).status).toBe(200);

  await page.goto("/");
  const card = cardOf(page, poolId);
  const name = `E2E chart ${poolId.replace("e2e-chart-", "")}`; // as createAcmePool names it
  await expect(card.getByRole("img", { name: `${name}: 3 pending now; 2 approved, 1 rejected in the last 24 hours` })).toBeVisible();

  // the table: 24 hours, oldest first; a request waits from the hour it asked in until now
  await card.getByText("Show as table").click();
  const rows = card.getByRole("table").getByRole("row");
  await expect(rows).toHaveCount(1 + 24);
  const expected = Array.from({ length: 24 }, (_, index) => {
    const start = new Date(hourStart - (23 - index) * HOUR);
    const asked = ASKED_HOURS_AGO.filter((hoursAgo) => 23 - hoursAgo <= index).length;
    const current = index === 23;
    return [start.toISOString().slice(11, 16), String(current ? asked - 3 : asked), current ? "2" : "0", current ? "1" : "0"];
  });
  const table = await rows.evaluateAll((trs) => trs.slice(1).map((tr) => [...tr.children].map((cell) => cell.textContent)));
  expect(table).toEqual(expected);
  // made when opened (components/pools/pool-activity-table.tsx), so audited open
  await expectNoAxeViolations(page, "the opened table", "all-rules", `li:has([data-testid="pool-${poolId}"])`);
  await card.screenshot({ path: screenshotPath("pool-activity-table") });
});

test("a seeded pool's chart renders, on a desktop and on a phone, light and dark, without a sideways scroll", async ({ page }) => {
  // One load: the scheme and the width change in place, as they do for a user
  // who turns a phone or switches to dark. (The overview holds every pool the
  // suite has made by now; loading it four times under CI's load ran past the
  // test's minute.) Viewport screenshots, not full pages, for the same reason.
  await page.goto("/");
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [label, viewport] of [
      ["desktop", { width: 1366, height: 850 }],
      ["phone", { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(viewport);
      const chart = cardOf(page, "gpu-a").getByRole("img", {
        name: /^GPU A: \d+ pending now; \d+ approved, \d+ rejected in the last 24 hours$/,
      });
      await expect(chart).toBeVisible();
      await expectNoSidewaysScroll(page, `overview, ${label}, ${scheme}`);
      await page.screenshot({ path: screenshotPath(`pool-activity-${label}-${scheme}`) });
      await page.getByTestId("site-fra1").screenshot({ path: screenshotPath(`pool-activity-fra1-${label}-${scheme}`) });
    }
  }
  // The README's picture (written like the queue's: when missing or asked for).
  if (process.env.BC_UPDATE_SCREENSHOTS || !existsSync("docs/screenshot-pool-activity.png")) {
    await copyFile(screenshotPath("pool-activity-fra1-desktop-light"), "docs/screenshot-pool-activity.png");
  }
});
