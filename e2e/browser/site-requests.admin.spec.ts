import { expect, test } from "@playwright/test";
import { addAcmePool, createAcmePool, createPendingRequest, storedRequest } from "@/test/browser/data";
import { openQueue, rowOf } from "@/test/browser/queue";

// A site of its own with two pools (as fra1 has gpu-a and gpu-b): in the seeded
// pools, what other specs leave pending would push the row off the first page.
test("a site request approved in one pool leaves the other pool's queue, without a reload there", async ({ page, context }) => {
  const { poolId: poolA, siteId } = await createAcmePool("site-a");
  const poolB = await addAcmePool(siteId, "site-b");
  const request = await createPendingRequest({ poolId: null, siteId, label: "site" });
  const pageB = page;
  await openQueue(pageB, poolB);
  await expect(rowOf(pageB, request.hostname).getByText("unclaimed site request")).toBeVisible();

  const pageA = await context.newPage();
  await openQueue(pageA, poolA);
  await rowOf(pageA, request.hostname)
    .getByRole("button", { name: `Approve ${request.hostname}` })
    .click();
  const dialog = pageA.getByRole("dialog", { name: `Approve ${request.hostname}` });
  await expect(dialog).toContainText("This unclaimed site request will be claimed by this pool.");
  await dialog.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(dialog).toBeHidden();
  expect(await storedRequest(request.id)).toMatchObject({ state: "approved", poolId: poolA });

  // pool A now owns it: under approved, without the site badge.
  await pageA.getByRole("radio", { name: "approved", exact: true }).check();
  await expect(rowOf(pageA, request.hostname)).toBeVisible();
  await expect(rowOf(pageA, request.hostname).getByText("unclaimed site request")).toHaveCount(0);

  // pool B's open queue drops it on its next refresh.
  await pageB.bringToFront();
  await expect(rowOf(pageB, request.hostname)).toHaveCount(0, { timeout: 15_000 });
  await openQueue(pageB, poolB, "all");
  await expect(rowOf(pageB, request.hostname)).toHaveCount(0);
});
