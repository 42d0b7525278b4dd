import { expect, test } from "@playwright/test";
import { createAcmePool, createPendingRequest } from "@/test/browser/data";
import { openQueue, rowOf } from "@/test/browser/queue";

// A pool admin's queue: the seeded requests (SPEC Part C), the state filter in
// the URL, live refresh, and the overview of their pools.

const SEEDED = {
  pending: ["node-001.fra1.acme.test", "node-002.fra1.acme.test"],
  unclaimedPending: ["node-010.fra1.acme.test", "node-011.fra1.acme.test"],
  approved: ["node-003.fra1.acme.test"],
  rejected: ["node-004.fra1.acme.test"],
  consumed: ["node-005.fra1.acme.test"],
  expired: ["node-006.fra1.acme.test", "node-012.fra1.acme.test"],
};

test("the admin sees gpu-a's seeded pending requests and its site's unclaimed ones", async ({ page }) => {
  await openQueue(page, "gpu-a");
  for (const hostname of SEEDED.pending) await expect(rowOf(page, hostname)).toBeVisible();
  for (const hostname of SEEDED.unclaimedPending) {
    await expect(rowOf(page, hostname).getByText("unclaimed site request")).toBeVisible();
  }
  // Another pool's request is not in this queue.
  await expect(rowOf(page, "node-007.fra1.acme.test")).toHaveCount(0);
  const first = rowOf(page, SEEDED.pending[0]!);
  await expect(first.getByText("placeholder hardware id")).toBeVisible();
  await expect(first.getByText("To Be Filled By O.E.M.")).toBeVisible();
  await expect(first.getByText("23ecae7f1244…")).toBeVisible(); // the demo software TPM's EK hash (SPEC F5), short
  await expect(first.getByRole("button", { name: /^Approve / })).toBeVisible();
  await expect(first.locator("time[datetime]").last()).toHaveText(/^\d{2}:\d{2}:\d{2}$/); // countdown
});

test("the state filter is a radio group: arrow keys choose the next state, into the URL, and focus stays on it", async ({ page }) => {
  await openQueue(page, "gpu-a");
  const filter = page.getByRole("group", { name: "Filter by state" });
  await filter.getByRole("radio", { name: "pending", exact: true }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(page).toHaveURL("/pools/gpu-a?state=approved");
  await expect(filter.getByRole("radio", { name: "approved", exact: true })).toBeChecked();
  await expect(filter.getByRole("radio", { name: "approved", exact: true })).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(page).toHaveURL("/pools/gpu-a?state=pending");
  await expect(filter.getByRole("radio", { name: "pending", exact: true })).toBeFocused();
});

test("a chosen filter stays chosen at once, and Back brings the earlier one back, radio and rows", async ({ page }) => {
  await openQueue(page, "gpu-a");
  const filter = page.getByRole("group", { name: "Filter by state" });
  // check() fails if the radio flicks back to the old choice after the click
  await filter.getByRole("radio", { name: "rejected", exact: true }).check();
  await expect(page).toHaveURL("/pools/gpu-a?state=rejected");
  await expect(rowOf(page, SEEDED.rejected[0]!)).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/pools\/gpu-a(\?state=pending)?$/);
  await expect(filter.getByRole("radio", { name: "pending", exact: true })).toBeChecked();
  await expect(rowOf(page, SEEDED.pending[0]!)).toBeVisible();
  await expect(rowOf(page, SEEDED.rejected[0]!)).toHaveCount(0);
});

test("every state filter lists only that state, lives in the URL and survives a reload", async ({ page }) => {
  await openQueue(page, "gpu-a");
  await expect(page.getByRole("radio", { name: "pending", exact: true })).toBeChecked();
  for (const state of ["approved", "rejected", "consumed", "expired", "pending"] as const) {
    await page.getByRole("radio", { name: state, exact: true }).check();
    await expect(page).toHaveURL(`/pools/gpu-a?state=${state}`);
    const expected = state === "pending" ? [...SEEDED.pending, ...SEEDED.unclaimedPending] : SEEDED[state];
    for (const hostname of expected) await expect(rowOf(page, hostname)).toBeVisible();
    // Each row reads as the filtered (effective) state.
    const badges = page
      .getByTestId("request-row")
      .locator(".badge-pending, .badge-approved, .badge-rejected, .badge-expired, .badge-consumed");
    await expect(badges.first()).toHaveText(state);
    expect(new Set(await badges.allTextContents())).toEqual(new Set([state]));
  }
  await page.goto("/pools/gpu-a?state=rejected");
  await page.reload();
  await expect(page.getByRole("radio", { name: "rejected", exact: true })).toBeChecked();
  await expect(rowOf(page, SEEDED.rejected[0]!)).toBeVisible();
  await expect(rowOf(page, SEEDED.pending[0]!)).toHaveCount(0);

  await page.goto("/pools/gpu-a?state=all");
  for (const hostname of [...SEEDED.pending, ...SEEDED.approved, ...SEEDED.rejected, ...SEEDED.consumed, ...SEEDED.expired]) {
    await expect(rowOf(page, hostname)).toBeVisible();
  }
});

test("a new deferral appears without a reload", async ({ page }) => {
  await openQueue(page, "cpu-x");
  const navigations: string[] = [];
  page.on("framenavigated", (frame) => navigations.push(frame.url()));
  const request = await createPendingRequest({ poolId: "cpu-x", siteId: "ams1", label: "live" });
  await expect(rowOf(page, request.hostname)).toBeVisible({ timeout: 15_000 });
  expect(navigations).toEqual([]);
});

test("the CSR fingerprint is shown short and copied whole", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const request = await createPendingRequest({ poolId: "gpu-b", label: "copy" });
  await openQueue(page, "gpu-b");
  const row = rowOf(page, request.hostname);
  await expect(row.getByText(`${request.csrSha256.slice(0, 12)}…`)).toBeVisible();
  await row.getByRole("button", { name: `Copy the CSR fingerprint of ${request.hostname}` }).click();
  await expect(row.getByRole("button", { name: `Copy the CSR fingerprint of ${request.hostname}` })).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(request.csrSha256);
});

test("the overview lists the admin's pools by site, with pending counts, the archived badge and unclaimed site requests", async ({
  page,
}) => {
  // A site of this test's own, so that parallel specs cannot change its counts.
  const { poolId, siteId } = await createAcmePool("overview");
  await createPendingRequest({ poolId, siteId, label: "own" });
  await createPendingRequest({ poolId, siteId, label: "own" });
  await createPendingRequest({ poolId: null, siteId, label: "unclaimed" });
  await createPendingRequest({ poolId, siteId, label: "expired", ttlSeconds: -60 }); // does not count

  await page.goto("/");
  const fra1 = page.getByTestId("site-fra1");
  await expect(fra1.getByTestId("pool-gpu-a")).toBeVisible();
  await expect(fra1.getByTestId("pool-gpu-b")).toBeVisible();
  await expect(fra1.getByTestId("pool-legacy").getByText("archived")).toBeVisible();
  await expect(page.getByTestId("site-ams1").getByTestId("pool-cpu-x")).toBeVisible();
  await expect(page.getByTestId("site-nyc1")).toHaveCount(0); // globex is not theirs
  await expect(fra1.getByTestId("unclaimed-fra1")).toContainText("unclaimed site request");

  const site = page.getByTestId(`site-${siteId}`);
  await expect(site.getByTestId(`unclaimed-${siteId}`)).toContainText("1 unclaimed site request —");
  await expect(site.getByTestId(`pool-${poolId}`).getByTestId("pending-count")).toHaveText("3");
  await expect(site.getByTestId(`pool-${poolId}`)).toContainText("(2 own + 1 unclaimed)");
  await fra1.getByTestId("pool-gpu-b").click();
  await expect(page).toHaveURL("/pools/gpu-b");
});

test("an empty queue says what to do", async ({ page }) => {
  await openQueue(page, "cpu-x", "consumed");
  await expect(page.getByTestId("queue-empty")).toContainText("No consumed approvals.");
});

test("an archived pool can reject its site's requests but not approve them", async ({ page }) => {
  await openQueue(page, "legacy");
  await expect(page.getByText("This pool is archived")).toBeVisible();
  const row = rowOf(page, "node-010.fra1.acme.test");
  await expect(row.getByRole("button", { name: "Reject node-010.fra1.acme.test" })).toBeVisible();
  await expect(row.getByRole("button", { name: /^Approve/ })).toHaveCount(0);
});

test("a refresh that brings new pending requests announces them politely, without moving the focus", async ({ page }) => {
  const { poolId, siteId } = await createAcmePool("announce");
  const first = await createPendingRequest({ poolId, siteId, label: "announce" });
  await openQueue(page, poolId);
  await expect(rowOf(page, first.hostname)).toBeVisible();
  const announcement = page.getByTestId("queue-announcement");
  await expect(announcement).toHaveRole("status"); // role=status is a polite live region
  await expect(announcement).toHaveText(""); // what was there at load is not news
  const filter = page.getByRole("radio", { name: "pending", exact: true });
  await filter.focus();

  const one = await createPendingRequest({ poolId, siteId, label: "announce" });
  await expect(announcement).toHaveText(`New pending request: ${one.hostname}`, { timeout: 15_000 });
  await Promise.all([1, 2].map(() => createPendingRequest({ poolId, siteId, label: "announce" })));
  await expect(announcement).toHaveText("2 new pending requests", { timeout: 15_000 });
  await expect(filter).toBeFocused();

  // another view starts afresh: what it shows at first is not announced
  await page.getByRole("radio", { name: "all", exact: true }).check();
  await expect(rowOf(page, first.hostname)).toBeVisible();
  await expect(announcement).toHaveText("");
});
