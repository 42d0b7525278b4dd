import { expect, test } from "@playwright/test";
import { createAcmePool, createPendingRequest } from "./support/data";
import { openQueue, rowOf } from "./support/queue";

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
