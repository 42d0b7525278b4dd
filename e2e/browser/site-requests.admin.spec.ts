import { expect, test } from "@playwright/test";
import { createPendingRequest, storedRequest } from "./support/data";
import { openQueue, rowOf } from "./support/queue";

test("a site request approved in gpu-a leaves gpu-b's queue, without a reload there", async ({ page, context }) => {
  const request = await createPendingRequest({ poolId: null, siteId: "fra1", label: "site" });
  const gpuB = page;
  await openQueue(gpuB, "gpu-b");
  await expect(rowOf(gpuB, request.hostname).getByText("unclaimed site request")).toBeVisible();

  const gpuA = await context.newPage();
  await openQueue(gpuA, "gpu-a");
  await rowOf(gpuA, request.hostname)
    .getByRole("button", { name: `Approve ${request.hostname}` })
    .click();
  const dialog = gpuA.getByRole("dialog", { name: `Approve ${request.hostname}` });
  await expect(dialog).toContainText("This unclaimed site request will be claimed by this pool.");
  await dialog.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(dialog).toBeHidden();
  expect(await storedRequest(request.id)).toMatchObject({ state: "approved", poolId: "gpu-a" });

  // gpu-a now owns it: under approved, without the site badge.
  await gpuA.getByRole("radio", { name: "approved", exact: true }).check();
  await expect(rowOf(gpuA, request.hostname)).toBeVisible();
  await expect(rowOf(gpuA, request.hostname).getByText("unclaimed site request")).toHaveCount(0);

  // gpu-b's open queue drops it on its next refresh.
  await gpuB.bringToFront();
  await expect(rowOf(gpuB, request.hostname)).toHaveCount(0, { timeout: 15_000 });
  await openQueue(gpuB, "gpu-b", "all");
  await expect(rowOf(gpuB, request.hostname)).toHaveCount(0);
});
