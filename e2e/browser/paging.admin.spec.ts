import { expect, test } from "@playwright/test";
import { createAcmePool, createPendingRequest } from "@/test/browser/data";
import { openQueue, rowOf } from "@/test/browser/queue";
import { callAsService } from "@/test/browser/service-api";

// 50 requests a page (data/join-requests/join-requests-infinite-query.ts); "Load more" follows nextCursor.
test("load more appends the next page; a cursor in the URL starts the view after it", async ({ page }) => {
  const { poolId, siteId } = await createAcmePool("paging");
  const requests = [];
  for (let i = 0; i < 52; i++) requests.push(await createPendingRequest({ poolId, siteId, label: `p${String(i).padStart(2, "0")}` }));

  await openQueue(page, poolId);
  const rows = page.getByTestId("request-row");
  await expect(rows).toHaveCount(50);
  await expect(rowOf(page, requests[49]!.hostname)).toBeVisible();
  await expect(rowOf(page, requests[50]!.hostname)).toHaveCount(0);
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(rows).toHaveCount(52);
  await expect(rows.last()).toContainText(requests[51]!.hostname);
  await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);

  await page.goto(`/pools/${poolId}?state=pending&cursor=${requests[49]!.id}`);
  await expect(rows).toHaveCount(2);
  await expect(page.getByText(`Showing requests after ${requests[49]!.id}`)).toBeVisible();
  await page.getByRole("link", { name: "Show from the oldest" }).click();
  await expect(page).toHaveURL(`/pools/${poolId}?state=pending`);
  await expect(rows).toHaveCount(50);
});

// Issue 15 item 4: how far "Load more" went is in the URL (?until=<last row>).
test("a reload after two 'Load more' shows the same rows, also when one of them was decided meanwhile", async ({ page, request }) => {
  const { poolId, siteId } = await createAcmePool("paging-until");
  const created = [];
  for (let i = 0; i < 160; i++) created.push(await createPendingRequest({ poolId, siteId, label: `u${String(i).padStart(3, "0")}` }));
  const requests = created.sort((a, b) => (a.id < b.id ? -1 : 1)); // the queue's order
  const rows = page.getByTestId("request-row");
  const hostnamesShown = async () =>
    (await rows.allTextContents()).map((text) => requests.find((r) => text.includes(r.hostname))?.hostname);

  await openQueue(page, poolId);
  await expect(rows).toHaveCount(50);
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(rows).toHaveCount(100);
  await expect(page).toHaveURL(new RegExp(`until=${requests[99]!.id}`));
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(rows).toHaveCount(150);
  await expect(page).toHaveURL(new RegExp(`until=${requests[149]!.id}$`));
  const before = await hostnamesShown();
  expect(before).toEqual(requests.slice(0, 150).map((r) => r.hostname));

  await page.reload();
  await expect(rows).toHaveCount(150);
  expect(await hostnamesShown()).toEqual(before);
  await expect(page.getByRole("button", { name: "Load more" })).toBeVisible();

  // A shared link of the same view, after a request among the first 50 was
  // decided: the pending view loses that row and still reaches the same last
  // one; pages are whole, so the row after it moves up into the third page.
  const link = page.url();
  const rejected = await callAsService(request, "joinRequests/reject", {
    tenantId: "acme",
    poolId,
    requestId: requests[10]!.id,
    reason: "paging test",
  });
  expect(rejected.status).toBe(200);
  await page.goto(link);
  await expect(rows).toHaveCount(150);
  expect(await hostnamesShown()).toEqual(
    requests
      .slice(0, 151)
      .filter((_, i) => i !== 10)
      .map((r) => r.hostname),
  );

  // Choosing a filter starts from one page again (pending is the one shown: another, then back).
  await page.getByRole("radio", { name: "approved", exact: true }).check();
  await expect(page).toHaveURL(`/pools/${poolId}?state=approved`);
  await page.getByRole("radio", { name: "pending", exact: true }).check();
  await expect(page).toHaveURL(`/pools/${poolId}?state=pending`);
  await expect(rows).toHaveCount(50);
  // The pages already fetched are shown again by "Load more", and the URL follows.
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(rows).toHaveCount(100);
  await expect(page).toHaveURL(new RegExp(`until=${requests[100]!.id}$`));
});
