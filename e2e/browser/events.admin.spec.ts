import { expect, test } from "@playwright/test";
import { createAcmePool, createPendingRequest } from "@/test/browser/data";
import { callAsService } from "@/test/browser/service-api";
import { openQueue } from "@/test/browser/queue";

// The pool's event log (/pools/<id>/events): what events/list returns, 50 a
// page, the next page by nextCursor, filtered by type; both in the URL.
test("the queue links to the event log; it pages by cursor and filters by type", async ({ page, request }) => {
  const { poolId, siteId } = await createAcmePool("events");
  const requests = [];
  for (let i = 0; i < 52; i++) requests.push(await createPendingRequest({ poolId, siteId, label: `ev${i}` }));
  expect((await callAsService(request, "joinRequests/approve", { tenantId: "acme", poolId, requestId: requests[0]!.id })).status).toBe(200);
  const rejected = await callAsService(request, "joinRequests/reject", {
    tenantId: "acme",
    poolId,
    requestId: requests[1]!.id,
    reason: "not ours",
  });
  expect(rejected.status).toBe(200);

  await openQueue(page, poolId);
  await page.getByRole("link", { name: "Event log" }).click();
  await expect(page).toHaveURL(`/pools/${poolId}/events`);
  const rows = page.getByTestId("event-row");
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toHaveAttribute("data-type", "security.join-request.created");
  await expect(rows.first()).toContainText(requests[0]!.id);

  await page.getByRole("link", { name: "Next page →" }).click();
  await expect(page).toHaveURL(new RegExp(`/pools/${poolId}/events\\?after=evt_`));
  await expect(rows).toHaveCount(4);
  await expect(page.getByRole("link", { name: "Next page →" })).toHaveCount(0);
  await expect(rows.last()).toHaveAttribute("data-type", "security.join-request.rejected");
  await expect(rows.last()).toContainText("not ours");
  await expect(rows.last()).toContainText("bcsk_acmeadmin");

  await page.getByRole("link", { name: "approved", exact: true }).click();
  await expect(page).toHaveURL(`/pools/${poolId}/events?type=security.join-request.approved`);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(requests[0]!.id);
  await expect(rows.first()).toContainText("valid until");

  await page.getByRole("link", { name: "expired", exact: true }).click();
  await expect(page.getByTestId("event-log-empty")).toContainText("No expired events");

  // a request's id links to its detail page
  await page.getByRole("link", { name: "all", exact: true }).click();
  await rows.first().getByRole("link", { name: requests[0]!.id }).click();
  await expect(page).toHaveURL(`/pools/${poolId}/requests/${requests[0]!.id}`);
});
