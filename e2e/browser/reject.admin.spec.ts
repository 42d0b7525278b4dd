import { expect, test } from "@playwright/test";
import { createPendingRequest, storedRequest, userIdOf } from "@/test/browser/data";
import { openQueue, rowOf } from "@/test/browser/queue";
import { callAsService } from "@/test/browser/service-api";

test("rejecting with a reason records it and lists the request under rejected", async ({ page }) => {
  const request = await createPendingRequest({ poolId: "gpu-b", label: "reject" });
  await openQueue(page, "gpu-b");
  await rowOf(page, request.hostname)
    .getByRole("button", { name: `Reject ${request.hostname}` })
    .click();
  const dialog = page.getByRole("dialog", { name: `Reject ${request.hostname}` });
  await dialog.getByLabel(/^Reason/).fill("not our hardware");
  await expect(dialog.getByText("16 / 256")).toBeVisible();
  await dialog.getByRole("button", { name: "Reject", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Rejected ${request.hostname}`)).toBeVisible();
  await expect(rowOf(page, request.hostname)).toHaveCount(0);

  const stored = await storedRequest(request.id);
  expect(stored).toMatchObject({
    state: "rejected",
    reason: "not our hardware",
    poolId: "gpu-b",
    decidedBy: await userIdOf("admin@acme.test"),
  });

  await page.getByRole("radio", { name: "rejected", exact: true }).check();
  await expect(rowOf(page, request.hostname).locator(".badge-rejected")).toHaveText("rejected");
});

test("withdrawing an approval rejects it; the timeline says the approval was withdrawn", async ({ page }) => {
  const request = await createPendingRequest({ poolId: "gpu-b", label: "withdraw" });
  const approved = await callAsService(page.request, "joinRequests/approve", { tenantId: "acme", poolId: "gpu-b", requestId: request.id });
  expect(approved.status).toBe(200);

  await openQueue(page, "gpu-b", "approved");
  await rowOf(page, request.hostname)
    .getByRole("button", { name: `Withdraw the approval of ${request.hostname}` })
    .click();
  const dialog = page.getByRole("dialog", { name: `Withdraw the approval of ${request.hostname}` });
  await expect(dialog).toContainText("The machine has not used this approval yet");
  await dialog.getByLabel(/^Reason/).fill("wrong rack");
  await dialog.getByRole("button", { name: "Withdraw approval" }).click();
  await expect(dialog).toBeHidden();
  await expect(rowOf(page, request.hostname)).toHaveCount(0);
  expect(await storedRequest(request.id)).toMatchObject({ state: "rejected", reason: "wrong rack" });

  await page.goto(`/pools/gpu-b/requests/${request.id}`);
  const events = page.getByTestId("timeline-event");
  await expect(events).toHaveCount(3);
  await expect(events.nth(0)).toContainText("Deferred");
  await expect(events.nth(1)).toContainText("Approved");
  await expect(events.nth(1)).toContainText("Acme admin (demo) (bcsk_acmeadmin)");
  await expect(events.nth(2)).toContainText("Approval withdrawn");
  await expect(events.nth(2)).toContainText("admin@acme.test");
  await expect(events.nth(2)).toContainText("wrong rack");
});
