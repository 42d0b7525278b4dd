import { expect, test } from "@playwright/test";
import { createPendingRequest, storedRequest } from "@/test/browser/data";
import { openQueue, rowOf } from "@/test/browser/queue";
import { callAsService } from "@/test/browser/service-api";

test("when someone else decides first, the dialog shows the conflict and the row refreshes", async ({ page }) => {
  const request = await createPendingRequest({ poolId: "gpu-b", label: "conflict" });
  await openQueue(page, "gpu-b");
  await rowOf(page, request.hostname)
    .getByRole("button", { name: `Approve ${request.hostname}` })
    .click();
  const dialog = page.getByRole("dialog", { name: `Approve ${request.hostname}` });
  await expect(dialog).toBeVisible();

  // Meanwhile, through the API, someone else rejects it.
  const rejected = await callAsService(page.request, "joinRequests/reject", {
    tenantId: "acme",
    poolId: "gpu-b",
    requestId: request.id,
    reason: "someone else was faster",
  });
  expect(rejected.status).toBe(200);

  await dialog.getByRole("button", { name: "Approve", exact: true }).click();
  const error = dialog.getByTestId("decision-error");
  await expect(error).toContainText("INVALID_STATE");
  await expect(error).toContainText("join request is rejected");
  await expect(error).toContainText("Someone else may have decided this request first");
  await expect(dialog).toBeVisible();
  // The list was refetched behind the dialog: the request has left pending.
  await expect(rowOf(page, request.hostname)).toHaveCount(0);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  expect(await storedRequest(request.id)).toMatchObject({ state: "rejected", reason: "someone else was faster" });
});
